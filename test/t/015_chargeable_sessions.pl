# Whether a session can be charged is kept per backend (trust/chargeable_session; docs/privacy.md
# "Sessions that cannot be charged"); pgdp's release-authority rules apply in every session.
#   1. bob (no budget) calls eve's function that creates a table: refused, before and after an
#      admin session grants bob a budget (objects planted while he had none would later be taken
#      for his own code).
#   2. bob prepared a statement over eve's SQL function that makes a release while he had no
#      budget: eve's function is not inlined and runs under her frame, before and after the
#      grant; its release is refused, nothing charged.
#   3. With the trigger disabled (a restore can do that), carol gets a budget her session does not
#      hear of: her release is refused (40001) before any charge, and the next one is made and
#      charged once.
use strict;
use warnings;

use PostgreSQL::Test::Cluster;
use PostgreSQL::Test::Utils;
use Test::More;

my $node = PostgreSQL::Test::Cluster->new('chargeable_sessions');
$node->init;
$node->append_conf('postgresql.conf', "shared_preload_libraries = 'pgdp'\n");
$node->start;
$node->safe_psql(
	'postgres', q{
CREATE EXTENSION pgdp;
CREATE TABLE visits AS SELECT g AS id FROM generate_series(1, 1000) g;
CREATE ROLE eve LOGIN;
CREATE ROLE bob LOGIN;
CREATE ROLE carol LOGIN;
GRANT SELECT ON visits TO eve, bob, carol;
GRANT CREATE ON SCHEMA public TO bob, eve;
CREATE SCHEMA eve AUTHORIZATION eve;
GRANT USAGE ON SCHEMA eve TO PUBLIC;
SET SESSION AUTHORIZATION eve;
CREATE FUNCTION eve.plant(name text) RETURNS text LANGUAGE plpgsql AS
  $$ BEGIN EXECUTE format('CREATE TABLE public.%I (id int)', name); RETURN 'planted'; END $$;
CREATE FUNCTION eve.counts() RETURNS TABLE (n bigint) LANGUAGE sql STABLE AS
  'SELECT dp_count(1000000) FROM public.visits';
RESET SESSION AUTHORIZATION;
});
ok($node->poll_query_until('postgres', 'SELECT pgdp.ledger_ready()', 't'), 'ledger ready');
sub charged
{
	return $node->safe_psql('postgres', "SELECT count(*) FROM pgdp.ledger WHERE role = '$_[0]'::regrole");
}

# 1 and 2: bob's session, connected before his budget.
my $bob = $node->background_psql('postgres', on_error_stop => 0, extra_params => [ '-U', 'bob' ]);
my $out = $bob->query("SELECT eve.plant('bob_before')");
like($bob->{stderr}, qr/may not create or change objects/, 'without a budget, eve\'s DDL in bob\'s session is refused');
$bob->{stderr} = '';
$bob->query_safe('PREPARE bob_counts AS SELECT n > 0 FROM eve.counts()');
like($bob->query_safe('EXPLAIN (COSTS OFF) EXECUTE bob_counts'), qr/Function Scan/,
	'without a budget, eve\'s SQL function is not inlined into bob\'s plan');

$node->safe_psql('postgres', "SELECT FROM pgdp.set_budget('bob', 1e7, 0.5)");

$out = $bob->query("SELECT eve.plant('bob_after')");
like($bob->{stderr}, qr/may not create or change objects/, 'after the grant, eve\'s DDL in bob\'s session is refused');
$bob->{stderr} = '';
$out = $bob->query('EXECUTE bob_counts');
like($bob->{stderr}, qr/ERROR/, 'the prepared statement does not release eve\'s counts for bob');
$bob->{stderr} = '';
is(charged('bob'), 0, 'nothing was charged to bob');
is($node->safe_psql('postgres', "SELECT count(*) FROM pg_class WHERE relname IN ('bob_before', 'bob_after')"), 0,
	'eve\'s tables were not created');
is($bob->query_safe('SELECT dp_count(1000000) > 0 FROM visits'), 't', 'bob\'s own release works');
is(charged('bob'), 1, 'and is charged once');
$bob->quit;

# 3: the trigger disabled.
my $carol = $node->background_psql('postgres', on_error_stop => 0, extra_params => [ '-U', 'carol' ]);
$node->safe_psql('postgres', 'ALTER TABLE pgdp.budgets DISABLE TRIGGER pgdp_chargeable_roles');
# carol's session hears of the ALTER and decides again: no budget.
$carol->query_safe('SELECT count(*) FROM visits');
$node->safe_psql('postgres', "SELECT FROM pgdp.set_budget('carol', 1e7, 0.5)");
$out = $carol->query('SELECT dp_count(1000000) > 0 FROM visits');
like($carol->{stderr}, qr/got a privacy budget or DP-only access after it was planned/,
	'a release in a session that did not hear of its budget is refused');
$carol->{stderr} = '';
is(charged('carol'), 0, 'nothing was charged to carol');
is($carol->query_safe('SELECT dp_count(1000000) > 0 FROM visits'), 't', 'the next release is made');
is(charged('carol'), 1, 'and charged once');
$carol->quit;
$node->safe_psql('postgres', 'ALTER TABLE pgdp.budgets ENABLE ALWAYS TRIGGER pgdp_chargeable_roles');

$node->stop;
done_testing();
