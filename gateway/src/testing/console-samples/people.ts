import type {
  ConsoleAreaSamples,
  ConsoleCallSamples,
  ConsoleRequest,
  ConsoleWorld,
  Operator,
  Person,
} from './types.js';
import { personData } from './types.js';

/**
 * The People calls' samples for the access matrix (issue 52): each change acts on a fresh person placed as the
 * operator's own people are (so no try changes what another needs), and out of reach on the world's people the
 * operator must not reach and, for memberships, on customers outside the operator's.
 */

const REASON = 'Matrix: asked by the person on the phone';

/** A fresh person where the operator's in-reach person is (its partner and customers). */
function freshIn(world: ConsoleWorld, operator: Operator): Promise<Person> {
  const model = world.personIn(operator);
  return world.addPerson({ partnerId: model.partnerId, customerIds: model.customerIds });
}

/** The customers outside the operator's reach. */
function customersOutside(world: ConsoleWorld, operator: Operator): string[] {
  const { grant } = operator;
  if (grant.partnerId === null && grant.customerId === null) return [];
  return Object.values(world.customers)
    .filter((c) => (grant.customerId !== null ? c.id !== grant.customerId : c.partnerId !== grant.partnerId))
    .map((c) => c.id);
}

/**
 * The refusal a person out of reach gets (issue 52's Proof, ADR 0061): 403 for an account the caller's grants do not
 * cover; 404 for a platform administrator, whom only a caller reaching everyone may know of.
 */
const refusalFor = (person: Person) => (person.platformAdmin ? 404 : 403);

/** A change taking the person and a reason: in reach on a fresh person, out of reach on the others. */
function change(allowed?: readonly (400 | 409)[]): ConsoleCallSamples {
  return {
    async inScope(world, operator) {
      const person = await freshIn(world, operator);
      return { method: 'POST', body: { id: person.id, reason: REASON } };
    },
    outOfScope: (world, operator) => [
      ...world.peopleOutside(operator).map((person): ConsoleRequest => ({
        method: 'POST',
        body: { id: person.id, reason: REASON },
        mustNotShow: personData(person),
        refusedWith: refusalFor(person),
      })),
    ],
    ...(allowed ? { allowed } : {}),
  };
}

export const samples = {
  ConsolePeople: {
    inScope: () => ({ method: 'GET', query: { query: '' } }),
    outOfScope: (world, operator) => [
      ...customersOutside(world, operator).map((customerId): ConsoleRequest => ({
        method: 'GET',
        query: { customerId },
        mustNotShow: world
          .peopleOutside(operator)
          .filter((person) => person.customerIds.includes(customerId))
          .flatMap(personData),
      })),
      // A search for a person out of reach, by username, e-mail and display name: answered, without them.
      ...world.peopleOutside(operator).flatMap((person) =>
        personData(person).map((query): ConsoleRequest => ({
          method: 'GET',
          query: { query },
          mustNotShow: personData(person),
          filtered: true,
        })),
      ),
    ],
  },
  ConsolePerson: {
    inScope: (world, operator) => ({ method: 'GET', query: { id: world.personIn(operator).id } }),
    outOfScope: (world, operator) => [
      ...world.peopleOutside(operator).map((person): ConsoleRequest => ({
        method: 'GET',
        query: { id: person.id },
        refusedWith: refusalFor(person),
        mustNotShow: personData(person),
      })),
    ],
  },
  DisablePerson: change(),
  EnablePerson: change(),
  EndPersonSessions: change(),
  ResetPersonSecondFactor: change(),
  // 409 when the person has no e-mail address to send the link to.
  SendPersonPasswordReset: change([409]),
  RequirePersonTwoStep: change(),
  ClearPersonThrottle: change(),
  AddPersonMembership: {
    async inScope(world, operator) {
      const person = await freshIn(world, operator);
      const customerId = world.personIn(operator).customerIds[0] ?? world.customers.acmeRetail.id;
      return { method: 'POST', body: { id: person.id, customerId, roles: ['MANAGER'], reason: REASON } };
    },
    async outOfScope(world, operator) {
      const customerId = world.personIn(operator).customerIds[0] ?? world.customers.acmeRetail.id;
      const others = world.peopleOutside(operator).map((person): ConsoleRequest => ({
        method: 'POST',
        body: { id: person.id, customerId, roles: ['EMPLOYEE'], reason: REASON },
        mustNotShow: personData(person),
        refusedWith: refusalFor(person),
      }));
      const outside = customersOutside(world, operator);
      if (outside.length === 0) return others;
      const person = await freshIn(world, operator);
      return [
        ...others,
        ...outside.map((id): ConsoleRequest => ({
          method: 'POST',
          body: { id: person.id, customerId: id, roles: ['EMPLOYEE'], reason: REASON },
        })),
      ];
    },
  },
  RemovePersonMembership: {
    async inScope(world, operator) {
      const person = await freshIn(world, operator);
      const customerId = world.personIn(operator).customerIds[0] ?? world.customers.acmeRetail.id;
      return { method: 'POST', body: { id: person.id, customerId, reason: REASON } };
    },
    async outOfScope(world, operator) {
      const outside = customersOutside(world, operator);
      const others = world.peopleOutside(operator).map((person): ConsoleRequest => ({
        method: 'POST',
        body: { id: person.id, customerId: person.customerIds[0] ?? outside[0], reason: REASON },
        mustNotShow: personData(person),
        refusedWith: refusalFor(person),
      }));
      if (outside.length === 0) return others;
      // A person in reach who is also a member of customers outside the operator's: those memberships stay.
      const model = world.personIn(operator);
      const person = await world.addPerson({
        partnerId: model.partnerId,
        customerIds: [...new Set([...model.customerIds, ...outside])],
      });
      return [
        ...others,
        ...outside.map((customerId): ConsoleRequest => ({
          method: 'POST',
          body: { id: person.id, customerId, reason: REASON },
        })),
      ];
    },
  },
} satisfies ConsoleAreaSamples;
