'use strict';
// A small dashboard backend on pgdp: five panels over the demo's staff table (demo/dashboard/
// setup.sql), each one prepared statement with bind parameters ($1..) whose single pgdp *_ci
// aggregate is one release. Run through a pg.Pool (node-postgres, extended protocol): a dashboard
// refreshes by re-running every panel; pgdp's release cache answers the repeats with the stored
// rows, free, until the data epoch of staff changes (pgdp.refresh('staff')).
//
//   const { createPool, panels, refresh, ledgerCount, budget } = require('./dashboard');
//   const pool = createPool({ max: 4 });             // connection from PGHOST, PGUSER, ... (libpq's)
//   const answers = await refresh(pool);              // { panel name: [row, ...] }

// node-postgres: from NODE_PATH or node_modules as usual, else from the repository's npm cache
// build/node (scripts/node.sh, ensure_node_pg), so `node demo/dashboard/run.js` works as is.
function requirePg() {
    try {
        return require('pg');
    } catch (e) {
        if (e.code !== 'MODULE_NOT_FOUND') throw e;
        try {
            return require(require('path').join(__dirname, '..', '..', 'build', 'node', 'node_modules', 'pg'));
        } catch (_) {
            throw new Error("node-postgres (pg) not found: install it with scripts/node.sh's ensure_node_pg " +
                '(bash -c \'source scripts/common.sh; source scripts/node.sh; ensure_node_pg\') or set NODE_PATH');
        }
    }
}
const pg = requirePg();

// The privacy parameters of every panel: each panel's query is one release of (epsilon, delta).
const PRIVACY = { epsilon: 0.5, delta: 1e-6, mechanism: 'auto', alpha: 0.05 };

// Age bands as a group key (NULL ages in their own band, so no row is silently left out).
const AGE_BAND = `CASE WHEN age IS NULL THEN 'unknown' WHEN age < 30 THEN '18-29' WHEN age < 40 THEN '30-39'
                       WHEN age < 50 THEN '40-49' WHEN age < 60 THEN '50-59' ELSE '60+' END`;

// Each panel: a name, what it shows, its SQL ($1.. bind parameters, the release in the column
// `release`, the group key in `label`, ORDER BY label so refreshes compare row by row), the
// bind values from the dashboard's settings, and how many releases one run of it makes.
const panels = [
    {
        name: 'headcount_by_region',
        title: 'Headcount by region',
        aggregate: 'dp_count_ci',
        unit: 'people',
        releases: 1,
        text: `SELECT region AS label, dp_count_ci($1::float8, $2::float8, $3::text, $4::float8) AS release
FROM staff GROUP BY region ORDER BY region`,
        values: (s) => [s.epsilon, s.delta, s.mechanism, s.alpha],
    },
    {
        name: 'mean_salary_by_region',
        title: 'Mean salary by region (clamped to [20 000, 250 000])',
        aggregate: 'dp_mean_ci',
        unit: 'salary',
        releases: 1,
        text: `SELECT region AS label, dp_mean_ci(salary, 20000, 250000, $1::float8, $2::float8, $3::text, $4::float8) AS release
FROM staff GROUP BY region ORDER BY region`,
        values: (s) => [s.epsilon, s.delta, s.mechanism, s.alpha],
    },
    {
        name: 'total_payroll',
        title: 'Total payroll (salaries clamped to [20 000, 250 000])',
        aggregate: 'dp_sum_ci',
        unit: 'salary',
        releases: 1,
        text: `SELECT 'all staff' AS label, dp_sum_ci(salary, 20000, 250000, $1::float8, $2::float8, $3::text, $4::float8) AS release
FROM staff`,
        values: (s) => [s.epsilon, s.delta, s.mechanism, s.alpha],
    },
    {
        name: 'region_headcount_by_age',
        title: 'Headcount by age band in one region (a parameter)',
        aggregate: 'dp_count_ci',
        unit: 'people',
        releases: 1,
        text: `SELECT ${AGE_BAND} AS label, dp_count_ci($2::float8, $3::float8, $4::text, $5::float8) AS release
FROM staff WHERE region = $1::text GROUP BY 1 ORDER BY 1`,
        values: (s) => [s.region, s.epsilon, s.delta, s.mechanism, s.alpha],
    },
    {
        name: 'mean_bonus_by_age',
        title: 'Mean bonus by age band (clamped to [0, 8 000])',
        aggregate: 'dp_mean_ci',
        unit: 'bonus',
        releases: 1,
        text: `SELECT ${AGE_BAND} AS label, dp_mean_ci(bonus, 0, 8000, $1::float8, $2::float8, $3::text, $4::float8) AS release
FROM staff GROUP BY 1 ORDER BY 1`,
        values: (s) => [s.epsilon, s.delta, s.mechanism, s.alpha],
    },
];

const DEFAULT_SETTINGS = { ...PRIVACY, region: 'island' };

// ---------------------------------------------------------------------------------------------
// dp_release arrives as a composite in text form: "(v,lo,hi,sd,alpha,mechanism,...)". Its fields
// are read from the catalog on first use (so the client follows the type's definition), and the
// pool's type parser turns each value into an object.

// Splits a composite's text form into its fields (NULL for an empty unquoted field).
function splitComposite(text) {
    if (text.length < 2 || text[0] !== '(' || text[text.length - 1] !== ')') {
        throw new Error(`not a composite value: ${text}`);
    }
    const fields = [];
    let i = 1;
    while (i <= text.length - 1) {
        let value = '';
        let quoted = false;
        while (i < text.length - 1 && text[i] !== ',') {
            if (text[i] === '"') {
                quoted = true;
                i++;
                while (i < text.length - 1) {
                    if (text[i] === '"' && text[i + 1] === '"') { value += '"'; i += 2; }
                    else if (text[i] === '"') { i++; break; }
                    else if (text[i] === '\\') { value += text[i + 1]; i += 2; }
                    else { value += text[i++]; }
                }
            } else if (text[i] === '\\') {
                value += text[i + 1];
                i += 2;
            } else {
                value += text[i++];
            }
        }
        fields.push(value === '' && !quoted ? null : value);
        i++;   // the comma, or past the closing parenthesis
    }
    return fields;
}

const FIELD_PARSERS = {
    'double precision': (v) => (v === null ? null : Number(v)),   // Number('Infinity') works too
    boolean: (v) => (v === null ? null : v === 't'),
};

// The pool: libpq environment (PGHOST, PGPORT, PGUSER, PGDATABASE) unless config says otherwise.
// Its connections parse dp_release into { value, ci_lower, ..., from_cache } once its OID is known.
function createPool(config = {}) {
    const releaseType = { oid: null, fields: null };
    const types = {
        getTypeParser(oid, format) {
            if (oid === releaseType.oid && format !== 'binary') {
                return (text) => {
                    const raw = splitComposite(text);
                    const out = {};
                    releaseType.fields.forEach((f, k) => {
                        out[f.name] = (FIELD_PARSERS[f.type] || ((v) => v))(raw[k]);
                    });
                    return out;
                };
            }
            return pg.types.getTypeParser(oid, format);
        },
    };
    const pool = new pg.Pool({ max: 4, ...config, types });
    pool.releaseType = releaseType;
    return pool;
}

async function loadReleaseType(pool) {
    if (pool.releaseType.oid !== null) return;
    const { rows } = await pool.query(
        `SELECT t.oid, a.attname AS name, format_type(a.atttypid, a.atttypmod) AS type
         FROM pg_type t JOIN pg_attribute a ON a.attrelid = t.typrelid
         WHERE t.oid = 'dp_release'::regtype AND a.attnum > 0 AND NOT a.attisdropped
         ORDER BY a.attnum`);
    if (rows.length === 0) throw new Error('type dp_release not found (is pgdp installed?)');
    pool.releaseType.fields = rows.map((r) => ({ name: r.name, type: r.type }));
    pool.releaseType.oid = Number(rows[0].oid);
}

// One row of a panel: its label and the release's fields.
function panelRow(row) {
    return { label: row.label, ...row.release };
}

// Runs one panel query: a named prepared statement (node-postgres prepares it once per
// connection) with the settings' bind values.
async function runPanel(pool, panel, settings) {
    const { rows } = await pool.query({
        name: `pgdp_panel_${panel.name}`,
        text: panel.text,
        values: panel.values(settings),
    });
    return rows.map(panelRow);
}

// One refresh: every panel at once through the pool, `copies` identical requests of each (a
// dashboard viewed by several people at the same moment; a pool of fewer connections queues
// them). Returns { name: [rows of each copy] }.
async function refresh(pool, options = {}) {
    await loadReleaseType(pool);
    const settings = { ...DEFAULT_SETTINGS, ...(options.settings || {}) };
    const chosen = options.panels ? panels.filter((p) => options.panels.includes(p.name)) : panels;
    const copies = options.copies || 1;
    // options.timings, when given, receives per panel the [start, end] (ms) of each copy.
    const timed = async (panel) => {
        const start = performance.now();
        const rows = await runPanel(pool, panel, settings);
        if (options.timings) (options.timings[panel.name] ||= []).push([start, performance.now()]);
        return rows;
    };
    const pending = chosen.map((panel) => Promise.all(Array.from({ length: copies }, () => timed(panel))));
    const answers = await Promise.all(pending);
    const out = {};
    chosen.forEach((panel, k) => { out[panel.name] = answers[k]; });
    return out;
}

// A panel's answer without from_cache: what must not change between refreshes of one epoch.
function answerKey(rows) {
    return JSON.stringify(rows.map(({ from_cache: _ignored, ...rest }) => rest));
}

// The number of releases charged to the session user (pgdp.my_ledger: one row per release).
async function ledgerCount(pool) {
    const { rows } = await pool.query('SELECT count(*)::int AS n FROM pgdp.my_ledger');
    return rows[0].n;
}

// The session user's budget (pgdp.my_budget), numbers as JavaScript numbers; null without one.
async function budget(pool) {
    const { rows } = await pool.query(
        `SELECT role::text AS role, epsilon_limit::float8, delta_limit::float8, epsilon_spent::float8,
                delta_spent::float8, epsilon_remaining::float8, delta_remaining::float8, releases
         FROM pgdp.my_budget`);
    return rows[0] || null;
}

module.exports = {
    PRIVACY,
    DEFAULT_SETTINGS,
    panels,
    createPool,
    loadReleaseType,
    refresh,
    runPanel,
    answerKey,
    ledgerCount,
    budget,
    splitComposite,
};
