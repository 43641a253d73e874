# Whether a session can be charged is kept per backend (trust/chargeable_session; docs/privacy.md
# "Sessions that cannot be charged"); pgdp's release-authority rules run only where it can.
#   1. bob (no budget) works as without pgdp: eve's SQL function is inlined into his plan. Code
#      run by eve's code may not plant code in his name (a function), which he could later take
#      for his own.
#   2. An admin session grants bob a budget. His session, which ran eve's code without the rules,
#      makes no release any more, neither eve's (prepared before) nor his own; nothing is charged.
#      A new session of bob releases, charged once.
#   3. A session of dave that ran no other role's code releases right after his grant; a plan it
#      made before the grant is planned again.
#   4. With the trigger disabled (a restore can do that), carol gets a budget her session does not
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
CREATE ROLE dave LOGIN;
GRANT SELECT ON visits TO eve, bob, carol, dave;
GRANT CREATE ON SCHEMA public TO bob, eve;
CREATE SCHEMA eve AUTHORIZATION eve;
GRANT USAGE ON SCHEMA eve TO PUBLIC;
SET SESSION AUTHORIZATION eve;
CREATE FUNCTION eve.plant(name text) RETURNS text LANGUAGE plpgsql AS
  $$ BEGIN EXECUTE format('CREATE FUNCTION public.%I() RETURNS int LANGUAGE sql AS ''SELECT 1''', name);
          RETURN 'planted'; END $$;
CREATE FUNCTION eve.table_of(name text) RETURNS text LANGUAGE plpgsql AS
  $$ BEGIN EXECUTE format('CREATE TABLE public.%I (id int PRIMARY KEY)', name); RETURN 'created'; END $$;
CREATE FUNCTION eve.counts() RETURNS TABLE (n bigint) LANGUAGE sql STABLE AS
  'SELECT dp_count(1000000) FROM public.visits';
RESET SESSION AUTHORIZATION;
});
ok($node->poll_query_until('postgres', 'SELECT pgdp.ledger_ready()', 't'), 'ledger ready');
sub charged
{
	return $node->safe_psql('postgres', "SELECT count(*) FROM pgdp.ledger WHERE role = '$_[0]'::regrole");
}

# 1: bob's session, connected before his budget.
my $bob = $node->background_psql('postgres', on_error_stop => 0, extra_params => [ '-U', 'bob' ]);
is($bob->query_safe("SELECT eve.table_of('bob_table')"), 'created',
	'without a budget, eve\'s function may create a table in bob\'s session');
my $out = $bob->query("SELECT eve.plant('bob_before')");
like($bob->{stderr}, qr/CREATE FUNCTION inside a function, procedure or DO block is not allowed/,
	'code run by eve\'s code may not plant a function in bob\'s name');
$bob->{stderr} = '';
is($bob->query_safe("SELECT count(*) FROM pg_proc WHERE proname = 'bob_before'"), '0', 'nothing was planted');
is($bob->query_safe('CREATE FUNCTION public.bob_own() RETURNS int LANGUAGE sql AS $$SELECT 1$$'), '',
	'bob\'s own CREATE FUNCTION is allowed');
$bob->query_safe('PREPARE bob_counts AS SELECT n > 0 FROM eve.counts()');
unlike($bob->query_safe('EXPLAIN (COSTS OFF) EXECUTE bob_counts'), qr/Function Scan/,
	'without a budget, eve\'s SQL function is inlined into bob\'s plan as without pgdp');

# 2: bob's budget, granted by an admin session while his session runs.
$node->safe_psql('postgres', "SELECT FROM pgdp.set_budget('bob', 1e7, 0.5)");
$out = $bob->query('EXECUTE bob_counts');
like($bob->{stderr}, qr/ERROR/, 'the prepared statement does not release eve\'s counts for bob');
$bob->{stderr} = '';
$out = $bob->query('SELECT dp_count(1000000) > 0 FROM visits');
like($bob->{stderr}, qr/cannot release in this session: it ran functions of roles/,
	'bob\'s session, which ran eve\'s code without the rules, makes no release');
$bob->{stderr} = '';
is(charged('bob'), 0, 'nothing was charged to bob');
$bob->quit;
$bob = $node->background_psql('postgres', on_error_stop => 0, extra_params => [ '-U', 'bob' ]);
is($bob->query_safe('SELECT dp_count(1000000) > 0 FROM visits'), 't', 'a new session of bob releases');
is(charged('bob'), 1, 'and is charged once');
$out = $bob->query('SELECT n > 0 FROM eve.counts()');
like($bob->{stderr}, qr/cannot be charged/, 'eve\'s function runs under her frame in it');
$bob->{stderr} = '';
is(charged('bob'), 1, 'nothing more was charged');
$bob->quit;

# 3: dave ran no other role's code.
my $dave = $node->background_psql('postgres', on_error_stop => 0, extra_params => [ '-U', 'dave' ]);
$dave->query_safe('SET plan_cache_mode = force_generic_plan');
$dave->query_safe('PREPARE dave_counts AS SELECT dp_count(1000000) > 0 FROM visits');
$out = $dave->query('EXECUTE dave_counts');
like($dave->{stderr}, qr/has no privacy budget/, 'without a budget dave releases nothing');
$dave->{stderr} = '';
$node->safe_psql('postgres', "SELECT FROM pgdp.set_budget('dave', 1e7, 0.5)");
is($dave->query_safe('EXECUTE dave_counts'), 't', 'after the grant, the same session releases (planned again)');
is(charged('dave'), 1, 'charged once');
$dave->quit;

# 4: the trigger disabled.
my $carol = $node->background_psql('postgres', on_error_stop => 0, extra_params => [ '-U', 'carol' ]);
$node->safe_psql('postgres', 'ALTER TABLE pgdp.budgets DISABLE TRIGGER pgdp_chargeable_roles');
# carol's session hears of the ALTER and decides again: no budget.
$carol->query_safe('SELECT count(*) FROM visits');
$node->safe_psql('postgres', "SELECT FROM pgdp.set_budget('carol', 1e7, 0.5)");
$out = $carol->query('SELECT dp_count(1000000) > 0 FROM visits');
like($carol->{stderr}, qr/it was planned before role "carol" got a privacy budget or DP-only access/,
	'a release in a session that did not hear of its budget is refused');
$carol->{stderr} = '';
is(charged('carol'), 0, 'nothing was charged to carol');
is($carol->query_safe('SELECT dp_count(1000000) > 0 FROM visits'), 't', 'the next release is made');
is(charged('carol'), 1, 'and charged once');
$carol->quit;
$node->safe_psql('postgres', 'ALTER TABLE pgdp.budgets ENABLE ALWAYS TRIGGER pgdp_chargeable_roles');

$node->stop;
done_testing();
