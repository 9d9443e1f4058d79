import type { Session } from '../../infra/sessions/session-manager.js';
import { PENDING_SIGN_IN_MS, type PendingState, type SignInContext } from './sign-in-context.js';
import type { StepId } from './sign-in-step.js';

/**
 * The pending sign-in's state (ADR 0005): where a session's sign-in stands, which calls it allows (deny by default,
 * S3, S20), and forgetting it when it went stale.
 */
export function pendingSignIns(ctx: SignInContext) {
  const { sessions, steps, clock } = ctx;

  /** Where the session's sign-in stands: none pending, stale (restart), or waiting at a step. */
  function pendingState(session: Session | undefined): PendingState {
    const pending = session?.record.data.pending;
    if (!pending) return { kind: 'none' };
    const step = pending.current === undefined ? undefined : steps.find(pending.current);
    const age = clock.now() - pending.startedAt;
    if (!step || !pending.passed.includes('password') || age < 0 || age > PENDING_SIGN_IN_MS) {
      return { kind: 'stale' };
    }
    return { kind: 'at', step };
  }

  /** True when the session has a live pending sign-in waiting at `stepId` (every step before it passed). */
  function isAtStep(session: Session | undefined, stepId: StepId): boolean {
    const state = pendingState(session);
    return state.kind === 'at' && state.step.id === stepId;
  }

  /** Whether `call` may be answered for this session: always without a pending sign-in, else deny by default. */
  function allowsCall(session: Session | undefined, call: string): boolean {
    const state = pendingState(session);
    if (state.kind === 'none') return true;
    if (state.kind === 'stale') return steps.allows('', call);
    return steps.allows(state.step.id, call);
  }

  /** Forgets the pending sign-in (stale, or left out of order): the browser starts again at the sign-in page. */
  async function abandon(session: Session): Promise<void> {
    if (!session.record.data.pending) return;
    delete session.record.data.pending;
    await sessions.save(session);
  }

  return { pendingState, isAtStep, allowsCall, abandon };
}

/** The pending sign-in's state. */
export type PendingSignIns = ReturnType<typeof pendingSignIns>;
