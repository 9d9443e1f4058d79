// The printed table: one row per figure, median and spread over rounds, plus the bound or budget it is read against.

/**
 * @typedef {{section: string, label: string, unit: string, median?: number, min?: number, max?: number,
 *   rounds?: number, text?: string, note?: string, decimals?: number}} Row
 */

/** Makes a row from a summary (see stats.summarize). */
export function row(section, label, unit, summary, note = '', decimals) {
  return {
    section,
    label,
    unit,
    median: summary.median,
    min: summary.min,
    max: summary.max,
    rounds: summary.rounds,
    note,
    decimals,
  };
}

/** A row without a number (e.g. a section that could not run here, with the reason). */
export function textRow(section, label, text, note = '') {
  return { section, label, unit: '', text, note };
}

function fmt(value, decimals) {
  if (value === undefined || !Number.isFinite(value)) return '–';
  const d =
    decimals ?? (Math.abs(value) >= 100 ? 0 : Math.abs(value) >= 10 ? 1 : Math.abs(value) >= 1 ? 2 : 3);
  return value.toFixed(d);
}

/** @param {Row[]} rows */
export function formatTable(rows) {
  const header = ['#', 'Figure', 'Median', 'Spread (min–max)', 'Unit', 'n', 'Bound / note'];
  const lines = rows.map((r) => [
    r.section,
    r.label,
    r.text ?? fmt(r.median, r.decimals),
    r.text !== undefined || r.rounds === undefined || r.rounds < 2
      ? ''
      : `${fmt(r.min, r.decimals)}–${fmt(r.max, r.decimals)}`,
    r.unit,
    r.rounds === undefined ? '' : String(r.rounds),
    r.note ?? '',
  ]);
  const widths = header.map((h, i) => Math.max(h.length, ...lines.map((l) => l[i].length)));
  const pad = (cells) =>
    cells.map((c, i) => (i === 2 || i === 5 ? c.padStart(widths[i]) : c.padEnd(widths[i]))).join(' | ');
  const sep = widths.map((w) => '-'.repeat(w)).join('-|-');
  return [pad(header), sep, ...lines.map(pad)].join('\n');
}
