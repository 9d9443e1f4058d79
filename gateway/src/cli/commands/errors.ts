import { ClientErrorCountRepository } from '../../store/client-error-count.repository.js';
import { defineCommand } from '../admin-command.js';
import { parseSince } from './audit.js';

export const errorsCommands = [
  defineCommand({
    area: 'errors',
    name: '',
    options: {
      since: { type: 'string', value: '1h' },
      json: { type: 'boolean' },
    },
    summary: [
      'client-error reports per remote and version (the version each browser was given, canary or not) over the',
      'last hour unless --since 30m / 24h / 7d: remote, version, total, then the count of each kind',
    ],
    async run({ store, out }, values) {
      const since = Date.now() - parseSince(values.since ?? '1h');
      const totals = await new ClientErrorCountRepository(store.database.db).totalsSince(since);
      const byVersion = new Map<
        string,
        { remote: string; version: string; total: number; kinds: Map<string, number> }
      >();
      for (const t of totals) {
        const key = `${t.remote}\0${t.version}`;
        const row = byVersion.get(key) ?? {
          remote: t.remote,
          version: t.version,
          total: 0,
          kinds: new Map(),
        };
        row.total += t.count;
        row.kinds.set(t.kind, (row.kinds.get(t.kind) ?? 0) + t.count);
        byVersion.set(key, row);
      }
      const rows = [...byVersion.values()].sort(
        (a, b) => a.remote.localeCompare(b.remote) || b.total - a.total || a.version.localeCompare(b.version),
      );
      if (values.json) {
        for (const r of rows)
          out(
            JSON.stringify({
              remote: r.remote,
              version: r.version,
              total: r.total,
              kinds: Object.fromEntries(r.kinds),
            }),
          );
        return;
      }
      if (rows.length === 0) {
        out('no client-error reports');
        return;
      }
      for (const r of rows)
        out(
          [
            r.remote,
            r.version,
            String(r.total),
            [...r.kinds].map(([kind, n]) => `${kind}=${n}`).join(' '),
          ].join('\t'),
        );
    },
  }),
];
