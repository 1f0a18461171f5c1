// The page's own CSS and script, inline so the report needs nothing but itself. The Content-Security-Policy
// allows exactly these two blocks (by hash) and media/images from the run directory; nothing remote, no other
// script, no form, no base override.

import { createHash } from 'node:crypto'

export const REPORT_STYLE = `
:root { color-scheme: light; --pass: #17803d; --fail: #b42318; --infra: #b54708; --muted: #667085; --line: #e4e7ec; }
body { font: 14px/1.45 system-ui, sans-serif; margin: 0 auto; max-width: 1180px; padding: 16px 24px 64px; color: #101828; }
h1 { font-size: 22px; margin: 8px 0 2px; } h2 { font-size: 18px; margin: 28px 0 8px; } h3 { font-size: 15px; margin: 18px 0 6px; }
.meta { color: var(--muted); margin: 0 0 12px; }
.cards { display: flex; gap: 12px; flex-wrap: wrap; }
.card { border: 1px solid var(--line); border-radius: 8px; padding: 10px 14px; min-width: 130px; }
.card b { display: block; font-size: 22px; }
table { border-collapse: collapse; width: 100%; margin: 6px 0; }
th, td { border-bottom: 1px solid var(--line); padding: 5px 8px; text-align: left; vertical-align: top; }
th { background: #f9fafb; font-weight: 600; }
#scenario-table th { cursor: pointer; user-select: none; }
th[aria-sort=ascending]::after { content: " ▲"; } th[aria-sort=descending]::after { content: " ▼"; }
td.num, th.num { text-align: right; font-variant-numeric: tabular-nums; }
.status { font-weight: 600; border-radius: 4px; padding: 1px 6px; color: #fff; white-space: nowrap; }
.status-passed { background: var(--pass); } .status-failed { background: var(--fail); }
.status-infrastructure_error { background: var(--infra); } .status-absent { background: var(--muted); }
.filters { display: flex; gap: 8px; align-items: center; margin: 8px 0; }
.filters input { padding: 4px 8px; width: 280px; }
section.scenario { border-top: 2px solid var(--line); margin-top: 28px; }
/* A section off screen is neither styled nor laid out until it comes near the view (its 300 players and timelines
   were most of a 100-scenario report's load time); find in page and links to a section still reach it. */
section.scenario { content-visibility: auto; contain-intrinsic-size: auto 1400px; }
pre { background: #f9fafb; border: 1px solid var(--line); padding: 8px; overflow: auto; max-height: 320px; font-size: 12px; }
.players { display: flex; gap: 16px; flex-wrap: wrap; } .players label { display: block; color: var(--muted); font-size: 12px; }
svg.timeline { width: 100%; height: auto; border: 1px solid var(--line); border-radius: 6px; background: #fff; }
svg.timeline [data-seek-ms] { cursor: pointer; }
.lines li { cursor: pointer; margin: 2px 0; } .lines li:hover { background: #f2f4f7; }
.who { font-weight: 600; display: inline-block; min-width: 74px; }
.who-caller { color: #175cd3; } .who-assistant { color: #6941c6; }
.change-added td { background: #ecfdf3; } .change-removed td { background: #fef3f2; } .change-changed td { background: #fffaeb; }
.problem { color: var(--infra); } .delta-better { color: var(--pass); } .delta-worse { color: var(--fail); }
.band-ok { color: var(--pass); }
`

export const REPORT_SCRIPT = `
(() => {
  const table = document.getElementById('scenario-table');
  if (table) {
    const body = table.tBodies[0];
    const text = document.getElementById('filter-text');
    const status = document.getElementById('filter-status');
    const count = document.getElementById('filter-count');
    const apply = () => {
      const wanted = text.value.trim().toLowerCase();
      let shown = 0;
      for (const row of body.rows) {
        const visible = (status.value === '' || row.dataset.status === status.value) &&
          (wanted === '' || row.dataset.search.includes(wanted));
        row.hidden = !visible;
        if (visible) shown++;
      }
      count.textContent = shown + ' of ' + body.rows.length + ' shown';
    };
    text.addEventListener('input', apply);
    status.addEventListener('change', apply);
    const valueOf = (row, index) => {
      const cell = row.cells[index];
      return cell.dataset.value !== undefined ? cell.dataset.value : cell.textContent.trim();
    };
    for (const header of table.tHead.rows[0].cells) {
      header.addEventListener('click', () => {
        const ascending = header.getAttribute('aria-sort') !== 'ascending';
        for (const other of header.parentNode.cells) other.removeAttribute('aria-sort');
        header.setAttribute('aria-sort', ascending ? 'ascending' : 'descending');
        const index = header.cellIndex;
        const rows = Array.from(body.rows);
        rows.sort((a, b) => {
          const x = valueOf(a, index), y = valueOf(b, index);
          if (x === '' || y === '') return x === y ? 0 : x === '' ? 1 : -1;
          const nx = Number(x), ny = Number(y);
          const order = Number.isFinite(nx) && Number.isFinite(ny) ? nx - ny : x.localeCompare(y);
          return ascending ? order : -order;
        });
        for (const row of rows) body.appendChild(row);
      });
    }
    apply();
  }
  const seek = (element) => {
    const player = document.getElementById(element.dataset.player);
    if (!player) return;
    const go = () => {
      player.currentTime = Number(element.dataset.seekMs) / 1000;
      const playing = player.play();
      if (playing) playing.catch(() => {});
    };
    // Players load nothing until used (preload none), and a position set before the metadata is known can be
    // lost: load first, then seek.
    if (player.readyState >= 1) return go();
    player.addEventListener('loadedmetadata', go, { once: true });
    player.preload = 'auto';
    player.load();
  };
  document.addEventListener('click', (event) => {
    const target = event.target.closest('[data-seek-ms]');
    if (target) seek(target);
  });
  document.addEventListener('keydown', (event) => {
    const target = event.target.closest && event.target.closest('[data-seek-ms]');
    if (target && (event.key === 'Enter' || event.key === ' ')) { event.preventDefault(); seek(target); }
  });
})();
`

const sha256 = (text: string) => `'sha256-${createHash('sha256').update(text, 'utf8').digest('base64')}'`

export const CONTENT_SECURITY_POLICY = [
  "default-src 'none'",
  `script-src ${sha256(REPORT_SCRIPT)}`,
  `style-src ${sha256(REPORT_STYLE)}`,
  "media-src 'self'",
  // data: only for the empty favicon below, which stops browsers asking the server for /favicon.ico.
  "img-src 'self' data:",
  "base-uri 'none'",
  "form-action 'none'",
].join('; ')
