-- pgdp demo, dashboard part: the data and the role the dashboard backend (demo/dashboard) runs as.
-- The staff table of demo/aggregates.sql (same definition and seed, so the same rows), but a
-- permanent one: the dashboard reads it from other sessions, and the release cache keys its
-- answers on the table's data epoch, which pgdp.refresh('staff') advances (policy 'manual').
-- Run as an admin (psql; scripts/demo.sh and test/t/010_dashboard_client.pl).
\set ON_ERROR_STOP on
\set QUIET on
SET client_min_messages = warning;

SELECT setseed(0.2024) \gset
CREATE TABLE staff (id int, region text, salary float8, age int4, bonus numeric);
INSERT INTO staff
SELECT i,
       CASE WHEN i <= 70000 THEN 'north' WHEN i <= 130000 THEN 'south' WHEN i <= 170000 THEN 'east'
            WHEN i <= 199500 THEN 'west' ELSE 'island' END,
       CASE WHEN i IN (199601, 199802, 199953) THEN 1500000 + (i % 7) * 100000  -- the island's executives
            WHEN random() < 0.01 THEN NULL
            WHEN random() < 0.005 THEN round(300000 + 3000000 * random() ^ 3)
            ELSE round(20000 + 180000 * random() ^ 2 + (i % 5) * 5000) END,
       CASE WHEN random() < 0.02 THEN NULL ELSE 18 + floor(random() * 50)::int END,
       CASE WHEN random() < 0.1 THEN NULL ELSE round((random() * 8000)::numeric, 2) END
FROM generate_series(1, 200000) AS i;
ANALYZE staff;

-- The dashboard's role: it logs in, reads staff, and pays for what it releases. A budget of
-- epsilon 10: the 5 panels cost 5 x 0.5 = 2.5 per data epoch (demo/dashboard/dashboard.js).
DO $$ BEGIN
    IF NOT EXISTS (SELECT FROM pg_roles WHERE rolname = 'dashboard') THEN CREATE ROLE dashboard LOGIN; END IF;
END $$;
GRANT SELECT ON staff TO dashboard;
\o /dev/null
SELECT pgdp.set_budget('dashboard', 10, 1e-4);
\o

-- Its answers are reused until the admin says the data changed: pgdp.refresh('staff').
\o /dev/null
SELECT pgdp.set_refresh_policy('staff', 'manual');
\o
