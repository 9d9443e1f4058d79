import { cliActor } from '../../identity/console/console-actor.js';
import { recordConsoleAction } from '../../identity/console/console-audit.js';
import { defineCommand } from '../admin-command.js';
import { UsageError } from '../cli-support.js';
import { list, url } from '../option-values.js';

export const clientsCommands = [
  defineCommand({
    area: 'clients',
    name: 'add',
    options: {
      id: { type: 'string', value: 'ID', required: true },
      name: { type: 'string', value: 'N', required: true },
      'redirect-uri': { type: 'string', multiple: true, value: 'URL[,URL]', required: true },
      secret: { type: 'string', value: 'S' },
      public: { type: 'boolean' },
      'post-logout-uri': { type: 'string', multiple: true, value: 'URL[,URL]' },
      'backchannel-logout-uri': { type: 'string', value: 'URL' },
      'initiate-login-uri': { type: 'string', value: 'URL' },
      'third-party': { type: 'boolean' },
    },
    summary: [
      'either --secret (at least 16 characters: a confidential client) or --public (PKCE only)',
      '--initiate-login-uri: where the application starts its own sign-in; the signed-in home links to it',
    ],
    async run({ store, out }, values) {
      const redirectUris = list(values['redirect-uri']).map((u) => url(u, 'redirect-uri'));
      if (redirectUris.length === 0) throw new UsageError('--redirect-uri is required');
      if (values.secret !== undefined && values.public)
        throw new UsageError('give either --secret or --public');
      if (values.secret === undefined && !values.public)
        throw new UsageError('give --secret S for a confidential client or --public for a PKCE-only one');
      if (values.secret !== undefined && values.secret.length < 16)
        throw new UsageError('--secret must have at least 16 characters');
      const backchannel = values['backchannel-logout-uri'];
      const launch = values['initiate-login-uri'];
      const client = await store.clients.create({
        clientId: values.id,
        name: values.name,
        redirectUris,
        postLogoutRedirectUris: list(values['post-logout-uri']).map((u) => url(u, 'post-logout-uri')),
        ...(backchannel ? { backchannelLogoutUri: url(backchannel, 'backchannel-logout-uri') } : {}),
        ...(launch ? { initiateLoginUri: url(launch, 'initiate-login-uri') } : {}),
        ...(values.secret !== undefined ? { clientSecret: values.secret } : {}),
        firstParty: !values['third-party'],
      });
      await recordConsoleAction(store.audit, {
        kind: 'console.applications.created',
        actor: cliActor(),
        subject: client.clientId,
        data: { confidential: client.clientSecret !== undefined },
      });
      out(`client ${client.clientId} added (${client.clientSecret ? 'confidential' : 'public, PKCE'})`);
    },
  }),
  defineCommand({
    area: 'clients',
    name: 'list',
    options: {},
    async run({ store, out }) {
      for (const c of await store.clients.list())
        out(
          `${c.clientId}\t${c.name}\t${c.clientSecret ? 'confidential' : 'public'}\t${c.redirectUris.join(',')}`,
        );
    },
  }),
];
