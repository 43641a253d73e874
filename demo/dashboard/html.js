'use strict';
// The dashboard as one static HTML page: a section per panel with an inline SVG bar chart (error
// bars from the release's interval), a table of every release field, and the budget left. No
// scripts, fonts or images from elsewhere: the page works offline.

function escapeHtml(s) {
    return String(s).replace(/[&<>"']/g, (c) => ({ '&': '&amp;', '<': '&lt;', '>': '&gt;', '"': '&quot;', "'": '&#39;' }[c]));
}

function formatNumber(x, digits = 0) {
    if (x === null || x === undefined) return '-';
    if (!Number.isFinite(x)) return String(x);
    return x.toLocaleString('en-US', { minimumFractionDigits: digits, maximumFractionDigits: digits });
}

// Decimals worth showing for a panel's values: none for counts and large sums, two for means.
function digitsFor(panel) {
    return panel.aggregate === 'dp_mean_ci' ? 2 : 0;
}

function formatSmall(x) {
    if (x === null || x === undefined) return '-';
    if (x === 0) return '0';
    return Math.abs(x) < 1e-3 ? x.toExponential(0) : String(x);
}

// A "nice" axis step: 1, 2 or 5 times a power of ten, about `ticks` steps over span.
function niceStep(span, ticks) {
    const raw = span / ticks;
    const power = 10 ** Math.floor(Math.log10(raw));
    const m = raw / power;
    return (m < 1.5 ? 1 : m < 3.5 ? 2 : m < 7.5 ? 5 : 10) * power;
}

// Counts and sums: horizontal bars from 0 (or from the lowest interval end, when that is negative)
// to the value. Means: points on an axis spanning the intervals only (a bar from 0 would hide
// them). Either way the interval is drawn as an error bar and the value written at the end.
function barChart(panel, rows) {
    const points = panel.aggregate === 'dp_mean_ci';
    const width = 760;
    const labelWidth = 110;
    const digits = digitsFor(panel);
    const valueText = (r) => `${formatNumber(r.value, digits)} ± ${formatNumber((r.ci_upper - r.ci_lower) / 2, digits)}`;
    // Room for the longest "value ± half-width" (about 7 px a character at 12 px).
    const valueWidth = Math.max(150, 12 + 7 * Math.max(...rows.map((r) => valueText(r).length)));
    const rowHeight = 30;
    const top = 10;
    const axisHeight = 26;
    const plotWidth = width - labelWidth - valueWidth - 10;
    const height = top + rows.length * rowHeight + axisHeight;
    const lows = rows.map((r) => Math.min(r.ci_lower, r.value));
    const highs = rows.map((r) => Math.max(r.ci_upper, r.value));
    let lo = points ? Math.min(...lows) : Math.min(0, ...lows);
    let hi = points ? Math.max(...highs) : Math.max(0, ...highs);
    if (hi === lo) hi = lo + 1;
    if (points) {
        const pad = (hi - lo) * 0.05;
        lo -= pad;
        hi += pad;
    }
    const step = niceStep(hi - lo, 5);
    lo = Math.floor(lo / step) * step;
    hi = Math.ceil(hi / step) * step;
    const x = (v) => labelWidth + ((v - lo) / (hi - lo)) * plotWidth;
    const parts = [];
    parts.push(`<svg xmlns="http://www.w3.org/2000/svg" width="${width}" height="${height}" viewBox="0 0 ${width} ${height}" role="img" aria-label="${escapeHtml(panel.title)}">`);
    // Grid and axis labels.
    for (let t = lo; t <= hi + step / 2; t += step) {
        const tx = x(t).toFixed(1);
        parts.push(`<line x1="${tx}" y1="${top - 4}" x2="${tx}" y2="${top + rows.length * rowHeight}" class="grid${Math.abs(t) < step / 2 ? ' zero' : ''}"/>`);
        parts.push(`<text x="${tx}" y="${height - 8}" class="tick">${escapeHtml(formatNumber(t, step < 1 ? 2 : 0))}</text>`);
        if (points) parts.push(`<line x1="${tx}" y1="${top + rows.length * rowHeight}" x2="${tx}" y2="${top + rows.length * rowHeight + 4}" class="grid zero"/>`);
    }
    rows.forEach((r, k) => {
        const y = top + k * rowHeight;
        const mid = y + rowHeight / 2;
        const x0 = x(Math.max(lo, 0));
        const xv = x(r.value);
        parts.push(`<text x="${labelWidth - 8}" y="${mid + 4}" class="label">${escapeHtml(r.label)}</text>`);
        if (!points) parts.push(`<rect x="${Math.min(x0, xv).toFixed(1)}" y="${y + 6}" width="${Math.abs(xv - x0).toFixed(1)}" height="${rowHeight - 12}" class="bar${r.from_cache ? ' cached' : ''}"><title>${escapeHtml(`${r.label}: ${formatNumber(r.value, digits)}`)}</title></rect>`);
        const xl = x(r.ci_lower).toFixed(1);
        const xu = x(r.ci_upper).toFixed(1);
        parts.push(`<line x1="${xl}" y1="${mid}" x2="${xu}" y2="${mid}" class="err"/>`);
        parts.push(`<line x1="${xl}" y1="${mid - 7}" x2="${xl}" y2="${mid + 7}" class="err"/>`);
        parts.push(`<line x1="${xu}" y1="${mid - 7}" x2="${xu}" y2="${mid + 7}" class="err"/>`);
        parts.push(points
            ? `<circle cx="${xv.toFixed(1)}" cy="${mid}" r="5" class="dot${r.from_cache ? ' cached' : ''}"><title>${escapeHtml(`${r.label}: ${formatNumber(r.value, digits)}`)}</title></circle>`
            : `<circle cx="${xv.toFixed(1)}" cy="${mid}" r="3.5" class="point"/>`);
        parts.push(`<text x="${width - valueWidth + 4}" y="${mid + 4}" class="value">${escapeHtml(valueText(r))}</text>`);
    });
    parts.push('</svg>');
    return parts.join('\n');
}

function releaseTable(panel, rows) {
    const digits = digitsFor(panel);
    const head = ['', 'value', `${formatNumber(100 * (1 - rows[0].alpha))} % interval`, 'noise sd', 'mechanism', 'ε charged', 'δ charged', 'from cache'];
    const body = rows.map((r) => [
        escapeHtml(r.label),
        formatNumber(r.value, digits),
        `${formatNumber(r.ci_lower, digits)} .. ${formatNumber(r.ci_upper, digits)}`,
        formatNumber(r.noise_sd, digits === 0 ? 1 : 2),
        escapeHtml(r.mechanism),
        r.epsilon === undefined ? 'n/a' : formatSmall(r.epsilon),
        r.delta === undefined ? 'n/a' : formatSmall(r.delta),
        r.from_cache === undefined ? 'n/a' : r.from_cache ? '<span class="yes">yes</span>' : 'no',
    ]);
    return `<div class="scroll"><table><thead><tr>${head.map((h) => `<th>${h}</th>`).join('')}</tr></thead><tbody>
${body.map((cells) => `<tr>${cells.map((c, k) => (k === 0 ? `<th>${c}</th>` : k === 2 ? `<td class="ci">${c}</td>` : `<td>${c}</td>`)).join('')}</tr>`).join('\n')}
</tbody></table></div>`;
}

// page: { title, generatedAt, role, budget, panels: [{ panel, rows, stable, refreshes, cachedRefreshes }],
//         charges: [{ what, count }], notes: [text] }
function renderPage(page) {
    const b = page.budget;
    const spentShare = b && b.epsilon_limit > 0 ? Math.min(1, b.epsilon_spent / b.epsilon_limit) : 0;
    const budgetHtml = b
        ? `<div class="budget"><div><b>Budget of ${escapeHtml(b.role)}</b> (pgdp.my_budget): ε ${formatNumber(b.epsilon_remaining, 2)} of ${formatNumber(b.epsilon_limit, 2)} remaining, δ ${formatSmall(b.delta_remaining)} of ${formatSmall(b.delta_limit)}; ${escapeHtml(b.releases)} releases charged</div>
<svg xmlns="http://www.w3.org/2000/svg" width="400" height="14" viewBox="0 0 400 14" role="img" aria-label="epsilon spent"><rect x="0" y="0" width="400" height="14" class="meter"/><rect x="0" y="0" width="${(400 * spentShare).toFixed(1)}" height="14" class="spent"/></svg></div>`
        : '<div class="budget">No budget for this role.</div>';
    const chargesHtml = (page.charges || []).length
        ? `<ul class="charges">${page.charges.map((c) => `<li>${escapeHtml(c)}</li>`).join('')}</ul>`
        : '';
    const sections = page.panels.map(({ panel, rows, stable, refreshes, cachedRefreshes }) => `
<section id="${escapeHtml(panel.name)}">
<h2>${escapeHtml(panel.title)}</h2>
<p class="meta"><code>${escapeHtml(panel.aggregate)}</code>, one release per data epoch; ${refreshes} refresh${refreshes === 1 ? '' : 'es'}:
${stable ? '<span class="yes">identical answers every time</span>' : '<span class="no">answers changed between refreshes</span>'}${cachedRefreshes === undefined ? '' : `, ${cachedRefreshes} answered from the cache`}.</p>
${barChart(panel, rows)}
${releaseTable(panel, rows)}
<p class="note">ε, δ charged: what the release cost, once per data epoch, when it was made; rows from the cache cost nothing again.${panel.aggregate === 'dp_mean_ci' ? ' Axis: the span of the intervals, not from 0.' : ''}</p>
<details><summary>query</summary><pre>${escapeHtml(panel.text)}</pre></details>
</section>`).join('\n');
    return `<!DOCTYPE html>
<html lang="en">
<head>
<meta charset="utf-8">
<title>${escapeHtml(page.title)}</title>
<style>
body { font: 14px/1.4 system-ui, -apple-system, "Segoe UI", sans-serif; color: #1d2430; background: #f6f7f9; margin: 0; padding: 24px; }
main { max-width: 820px; margin: 0 auto; }
h1 { font-size: 22px; margin: 0 0 4px; }
h2 { font-size: 16px; margin: 0 0 4px; }
section, .head { background: #fff; border: 1px solid #dde1e7; border-radius: 6px; padding: 14px 18px; margin: 0 0 16px; }
.meta, .note { color: #586070; margin: 0 0 8px; font-size: 12px; }
.budget { margin: 8px 0; }
.meter { fill: #e3e7ed; } .spent { fill: #d9822b; }
.grid { stroke: #e6e9ee; } .grid.zero { stroke: #9aa3b0; }
.tick { font-size: 11px; fill: #6b7380; text-anchor: middle; }
.label { font-size: 12px; fill: #1d2430; text-anchor: end; }
.value { font-size: 12px; fill: #1d2430; font-variant-numeric: tabular-nums; }
.bar { fill: #9cc3e6; } .bar.cached { fill: #8fd0b0; }
.err { stroke: #1d2430; stroke-width: 1.5; } .point { fill: #1d2430; }
.dot { fill: #5b9bd5; stroke: #1d2430; stroke-width: 1; } .dot.cached { fill: #3fae7a; }

table { border-collapse: collapse; margin: 8px 0; font-size: 12px; font-variant-numeric: tabular-nums; }
th, td { white-space: nowrap; padding: 2px 7px; border-bottom: 1px solid #eceff3; text-align: right; } thead th { color: #586070; font-weight: 600; }
tbody th { text-align: left; font-weight: 500; } td.ci { white-space: normal; }
.scroll { overflow-x: auto; }
.yes { color: #1c7c4d; font-weight: 600; } .no { color: #b3261e; font-weight: 600; }
pre { background: #f2f4f7; padding: 8px; font-size: 12px; overflow-x: auto; }
.legend span { display: inline-block; width: 12px; height: 12px; vertical-align: -2px; margin: 0 4px 0 10px; }
</style>
</head>
<body><main>
<div class="head">
<h1>${escapeHtml(page.title)}</h1>
<p class="meta">Generated ${escapeHtml(page.generatedAt)} by demo/dashboard/run.js as role ${escapeHtml(page.role)}. Every number is a differentially private release by pgdp;
the error bars are its ${formatNumber(100 * (1 - (page.panels[0]?.rows[0]?.alpha ?? 0.05)))} % interval, computed from the noisy value and the privacy parameters only.</p>
<p class="legend meta">Bars and points:<span style="background:#9cc3e6"></span>released by this refresh (charged)<span style="background:#8fd0b0"></span>from pgdp's release cache (free); error bars: the interval</p>
${budgetHtml}
${chargesHtml}
${(page.notes || []).map((n) => `<p class="note">${escapeHtml(n)}</p>`).join('\n')}
</div>
${sections}
</main></body>
</html>
`;
}

module.exports = { renderPage, barChart, escapeHtml };
