# pgdp 0.7: pg_dump keeps what the data owner declared - protected relations (privacy unit,
# max_groups_contributed, privacy unit kind), public relations and DP-only access grants, and
# (0.15) who created each trigger - and a
# restore into a new database gives the analyst the same DP-only access: the rows stay refused,
# the releases work.
#
# Run by scripts/test.sh (as an unprivileged user, from a copy of test/t).

use strict;
use warnings;

use PostgreSQL::Test::Cluster;
use PostgreSQL::Test::Utils;
use Test::More;

my $node = PostgreSQL::Test::Cluster->new('dump');
$node->init;
$node->append_conf('postgresql.conf', "shared_preload_libraries = 'pgdp'\nmax_worker_processes = 16\n");
$node->start;
$node->safe_psql(
	'postgres', q{
CREATE ROLE alice LOGIN;
CREATE EXTENSION pgdp;
CREATE TABLE sales (customer int, region text, amount int);
INSERT INTO sales SELECT g % 40, 'r' || (g % 3), g % 20 FROM generate_series(1, 400) g;
CREATE TABLE regions (region text);
INSERT INTO regions VALUES ('r0'), ('r1'), ('r2'), ('r3');
GRANT SELECT ON regions TO alice;
SELECT pgdp.protect('sales', 'customer', 2, privacy_unit_kind => 'customer');
SELECT pgdp.declare_public('regions');
SELECT pgdp.grant_access('sales', 'alice');
CREATE ROLE vic LOGIN;
CREATE ROLE eve LOGIN;
CREATE TABLE vic_notes (k int);
ALTER TABLE vic_notes OWNER TO vic;
GRANT ALL ON vic_notes TO eve;
CREATE FUNCTION noop() RETURNS trigger LANGUAGE plpgsql AS $$ BEGIN RETURN NEW; END $$;
SET ROLE eve;
CREATE TRIGGER eves AFTER INSERT ON vic_notes FOR EACH ROW EXECUTE FUNCTION noop();
RESET ROLE;
SET ROLE vic;
CREATE TRIGGER vics AFTER INSERT ON vic_notes FOR EACH ROW EXECUTE FUNCTION noop();
RESET ROLE;
});
my $catalog = q{SELECT relation, kind, privacy_unit, max_groups_contributed, privacy_unit_kind
                FROM pgdp.protections ORDER BY relation::text};
my $access = q{SELECT relation, role, can_read_rows FROM pgdp.dp_access ORDER BY 1, 2};
my $before_catalog = $node->safe_psql('postgres', $catalog);
my $before_access = $node->safe_psql('postgres', $access);
# 0.15: who created each trigger (pgdp.trigger_creators is dumped by relation and role name).
my $authors = q{SELECT relation, trigger, author, source FROM pgdp.trigger_authors
               WHERE relation = 'vic_notes'::regclass ORDER BY 1, 2};
my $before_authors = $node->safe_psql('postgres', $authors);
is($before_authors, "vic_notes|eves|eve|created\nvic_notes|vics|vic|created", 'trigger creators recorded');

my $dump = $node->basedir . '/pgdp.dump';
command_ok([ 'pg_dump', '-Fc', '-f', $dump, '-d', $node->connstr('postgres') ], 'pg_dump of a database with pgdp');
$node->safe_psql('postgres', 'CREATE DATABASE restored');
command_ok([ 'pg_restore', '-d', $node->connstr('restored'), $dump ], 'pg_restore into a new database');

is($node->safe_psql('restored', $catalog), $before_catalog, 'protected and public relations survive');
is($node->safe_psql('restored', $access), $before_access, 'DP-only access grants survive');
# The restore creates the triggers as a superuser (trusted by every role): each takes the creator of
# its restored record instead, so eve's trigger stays eve's code.
is($node->safe_psql('restored', $authors), $before_authors, 'trigger creators survive');
$node->safe_psql('restored', q{SELECT pgdp.set_budget('alice', 1e9, 0.5)});

my ($ret, $stdout, $stderr) = $node->psql('restored', 'SELECT * FROM sales LIMIT 1',
	extra_params => [ '-U', 'alice', '-v', 'VERBOSITY=verbose' ]);
like($stderr, qr/42501/, 'after the restore the analyst still cannot read the rows');
is($node->safe_psql('restored', 'SELECT dp_count(1e6) FROM sales', extra_params => [ '-U', 'alice' ]),
	'40', 'and still makes person-level releases (40 customers at epsilon 1e6)');
is($node->safe_psql('restored',
		q{SELECT count(*) FROM (SELECT r.region, dp_count(1e6) FROM regions r LEFT JOIN sales s USING (region) GROUP BY r.region) g},
		extra_params => [ '-U', 'alice' ]),
	'4', 'with public keys from the restored public relation');

$node->stop;
done_testing();
