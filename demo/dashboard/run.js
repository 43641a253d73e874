#!/usr/bin/env node
'use strict';
// Refreshes the dashboard of dashboard.js N times through a pg.Pool and reports, per panel,
// whether every refresh returned identical rows, and the releases charged (pgdp.my_ledger before
// and after). Connects as libpq would: PGHOST, PGPORT, PGUSER, PGDATABASE.
//
//   node demo/dashboard/run.js [--refreshes N] [--html FILE] [--region R] [--copies K]
//                              [--pool-max M] [--panels a,b] [--json]
//   node demo/dashboard/run.js --query SQL [--values JSON] [--copies K] [--json]
//
//   --refreshes N   refreshes of the whole dashboard (default 100)
//   --copies K      identical requests of each panel sent at once per refresh (default 1): K
//                   viewers opening the dashboard at the same moment
//   --region R      the parameter of the panel region_headcount_by_age (default island)
//   --pool-max M    connections in the pool (default 4)
//   --html FILE     write the dashboard as a static HTML page (inline SVG, no external assets)
//   --json          print the summary as JSON on stdout instead of text
//   --note TEXT     a line for the HTML page's header (repeatable)
//   --query SQL     instead of the dashboard: one query ($1.. bound to --values, a JSON array)
//                   with a column `release` of type dp_release; same refresh/copies/summary

const fs = require('fs');
const path = require('path');
const dashboard = require('./dashboard');
const { renderPage } = require('./html');

function parseArgs(argv) {
    const opts = { refreshes: 100, copies: 1, poolMax: 4, region: 'island', json: false, notes: [] };
    for (let i = 0; i < argv.length; i++) {
        const a = argv[i];
        const next = () => {
            if (i + 1 >= argv.length) throw new Error(`${a} needs a value`);
            return argv[++i];
        };
        const positive = (v) => {
            const n = Number(v);
            if (!Number.isInteger(n) || n < 1) throw new Error(`${a} must be a positive integer, got ${v}`);
            return n;
        };
        switch (a) {
            case '--refreshes': opts.refreshes = positive(next()); break;
            case '--copies': opts.copies = positive(next()); break;
            case '--pool-max': opts.poolMax = positive(next()); break;
            case '--region': opts.region = next(); break;
            case '--panels': opts.panels = next().split(','); break;
            case '--html': opts.html = next(); break;
            case '--json': opts.json = true; break;
            case '--note': opts.notes.push(next()); break;
            case '--query': opts.query = next(); break;
            case '--values': opts.values = JSON.parse(next()); break;
            case '-h': case '--help':
                process.stdout.write(fs.readFileSync(__filename, 'utf8').split('\n').slice(2, 21)
                    .map((l) => l.replace(/^\/\/ ?/, '')).join('\n') + '\n');
                process.exit(0);
                break;
            default: throw new Error(`unknown option ${a} (--help)`);
        }
    }
    if (opts.panels) {
        const known = dashboard.panels.map((p) => p.name);
        for (const p of opts.panels) if (!known.includes(p)) throw new Error(`unknown panel ${p} (panels: ${known.join(', ')})`);
    }
    return opts;
}

function median(xs) {
    if (xs.length === 0) return null;
    const s = [...xs].sort((a, b) => a - b);
    return s.length % 2 ? s[(s.length - 1) / 2] : (s[s.length / 2 - 1] + s[s.length / 2]) / 2;
}

// The dashboard's panels, or the single ad hoc query of --query as a panel.
function panelsOf(opts) {
    if (opts.query) {
        const values = opts.values || [];
        return [{ name: 'query', title: 'Ad hoc query', aggregate: 'release', unit: '', releases: 1, text: opts.query, values: () => values, adHoc: true }];
    }
    return opts.panels ? dashboard.panels.filter((p) => opts.panels.includes(p.name)) : dashboard.panels;
}

async function refreshOnce(pool, panels, opts) {
    if (!panels[0].adHoc) {
        return dashboard.refresh(pool, { panels: panels.map((p) => p.name), copies: opts.copies, settings: { region: opts.region }, timings: opts.timings });
    }
    await dashboard.loadReleaseType(pool);
    const p = panels[0];
    const copies = await Promise.all(Array.from({ length: opts.copies }, async () => {
        // Unnamed statement: the extended protocol with bind parameters, not prepared by name.
        const start = performance.now();
        const { rows } = await pool.query({ text: p.text, values: p.values() });
        (opts.timings[p.name] ||= []).push([start, performance.now()]);
        return rows.map((r) => ({ label: r.label ?? null, ...r.release }));
    }));
    return { [p.name]: copies };
}

async function main() {
    const opts = parseArgs(process.argv.slice(2));
    const panels = panelsOf(opts);
    const pool = dashboard.createPool({ max: opts.poolMax });
    pool.on('error', (e) => { process.stderr.write(`pool: ${e.message}\n`); });
    try {
        // Open every connection of the pool first, so that identical requests sent at once
        // (--copies) reach the server at once rather than one connection set-up apart.
        await Promise.all(Array.from({ length: opts.poolMax }, () => pool.query('SELECT 1')));
        const chargesBefore = await dashboard.ledgerCount(pool);
        const state = {};
        for (const p of panels) state[p.name] = { firstKey: null, stable: true, rows: null, refreshesFromCache: 0, firstFromCache: null, rowsFromCache: 0, rowsTotal: 0 };
        const times = [];
        for (let i = 0; i < opts.refreshes; i++) {
            const t0 = process.hrtime.bigint();
            const timings = {};
            const answers = await refreshOnce(pool, panels, { ...opts, timings });
            if (i === 0) {
                // Were all copies of a panel in flight together (each started before any ended)?
                for (const p of panels) {
                    const t = timings[p.name] || [];
                    state[p.name].copiesOverlapped = t.length > 1 &&
                        Math.max(...t.map((x) => x[0])) < Math.min(...t.map((x) => x[1]));
                }
            }
            times.push(Number(process.hrtime.bigint() - t0) / 1e6);
            for (const p of panels) {
                const s = state[p.name];
                for (const rows of answers[p.name]) {
                    const key = dashboard.answerKey(rows);
                    if (s.firstKey === null) s.firstKey = key;
                    else if (key !== s.firstKey) s.stable = false;
                    s.rowsTotal += rows.length;
                    s.rowsFromCache += rows.filter((r) => r.from_cache === true).length;
                }
                const rows = answers[p.name][0];
                const cached = rows.length > 0 && rows.every((r) => r.from_cache === true);
                if (i === 0) s.firstFromCache = cached;
                if (cached) s.refreshesFromCache++;
                s.rows = rows;
            }
        }
        const chargesAfter = await dashboard.ledgerCount(pool);
        const budget = await dashboard.budget(pool);
        const role = (await pool.query('SELECT session_user::text AS u')).rows[0].u;
        const summary = {
            role,
            refreshes: opts.refreshes,
            copies: opts.copies,
            charges_before: chargesBefore,
            charges_after: chargesAfter,
            charges: chargesAfter - chargesBefore,
            releases_per_epoch: panels.reduce((n, p) => n + p.releases, 0),
            first_refresh_ms: times[0],
            median_later_refresh_ms: median(times.slice(1)),
            budget,
            panels: panels.map((p) => ({
                name: p.name,
                stable: state[p.name].stable,
                first_from_cache: state[p.name].firstFromCache,
                refreshes_from_cache: state[p.name].refreshesFromCache,
                rows_from_cache: state[p.name].rowsFromCache,
                rows_total: state[p.name].rowsTotal,
                copies_overlapped: state[p.name].copiesOverlapped,
                rows: state[p.name].rows,
            })),
        };
        summary.all_stable = summary.panels.every((p) => p.stable);
        if (opts.html) {
            const page = {
                title: 'pgdp dashboard: staff',
                generatedAt: new Date().toISOString().replace('T', ' ').replace(/\..*/, ' UTC'),
                role,
                budget,
                panels: panels.map((p) => ({ panel: p, rows: state[p.name].rows, stable: state[p.name].stable, refreshes: opts.refreshes, cachedRefreshes: state[p.name].refreshesFromCache })),
                charges: opts.notes.concat([
                    `This run: ${opts.refreshes} refreshes of ${panels.length} panels, ${summary.charges} releases charged (pgdp.my_ledger ${chargesBefore} → ${chargesAfter} rows).`,
                ]),
            };
            fs.mkdirSync(path.dirname(path.resolve(opts.html)), { recursive: true });
            fs.writeFileSync(opts.html, renderPage(page));
            summary.html = path.resolve(opts.html);
        }
        if (opts.json) {
            process.stdout.write(JSON.stringify(summary) + '\n');
        } else {
            printSummary(summary);
        }
    } finally {
        await pool.end();
    }
}

function printSummary(s) {
    const out = [];
    out.push(`dashboard as ${s.role}: ${s.refreshes} refreshes of ${s.panels.length} panels` +
        (s.copies > 1 ? `, ${s.copies} identical requests of each at once` : '') +
        ` (first refresh ${s.first_refresh_ms.toFixed(1)} ms, later ones median ${s.median_later_refresh_ms === null ? '-' : s.median_later_refresh_ms.toFixed(1)} ms)`);
    const width = Math.max(...s.panels.map((p) => p.name.length));
    for (const p of s.panels) {
        out.push(`  ${p.name.padEnd(width)}  ${p.stable ? 'identical rows on every refresh' : 'ROWS CHANGED between refreshes'}` +
            `, ${p.rows.length} rows, ${p.refreshes_from_cache}/${s.refreshes} refreshes from the cache`);
    }
    out.push(`  releases charged (pgdp.my_ledger): ${s.charges_before} before, ${s.charges_after} after: ${s.charges} new` +
        ` (one release per panel per data epoch: ${s.releases_per_epoch} per epoch)`);
    if (s.budget) {
        out.push(`  budget left (pgdp.my_budget): epsilon ${s.budget.epsilon_remaining} of ${s.budget.epsilon_limit}, delta ${s.budget.delta_remaining} of ${s.budget.delta_limit}`);
    }
    if (s.html) out.push(`  HTML: ${s.html}`);
    process.stdout.write(out.join('\n') + '\n');
}

main().catch((e) => {
    process.stderr.write(`run.js: ${e.message}${e.code ? ` (SQLSTATE ${e.code})` : ''}\n`);
    process.exit(1);
});
