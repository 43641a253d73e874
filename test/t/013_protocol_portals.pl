
# Releases and the portals of the extended protocol (issue 20, left open by 0.4). A utility statement
# run for an extended-protocol portal (EXECUTE of a prepared statement, FETCH, CALL) stores its whole
# result in the portal at the first Execute; the rest of the rows wait there, and any SQL code in
# the session can FETCH them by the portal's name (pg_cursors lists it), another role's function
# too, which would hand it releases charged to the session user. psql cannot bind portals, so this
# file speaks the protocol itself (t/ProtocolFrontend.pm).
#
#   1. EXECUTE of a prepared release in a named portal (and in the unnamed one): refused (0A000)
#      before anything is charged; eve's function finds nothing to fetch.
#   2. The same EXECUTE as a simple query: released (the simple protocol's portal sends at once).
#   3. The prepared release bound directly (a SELECT portal, run by the executor at each fetch):
#      released; eve's function fetching the rest of it is refused (42501) and gets nothing.

use strict;
use warnings;

use PostgreSQL::Test::Cluster;
use PostgreSQL::Test::Utils;
use Test::More;
use ProtocolFrontend;

my $node = PostgreSQL::Test::Cluster->new('portals');
$node->init;
$node->append_conf('postgresql.conf', "shared_preload_libraries = 'pgdp'\n");
$node->start;
$node->safe_psql(
	'postgres', q{
SET client_min_messages = warning;
CREATE EXTENSION pgdp;
CREATE ROLE bob LOGIN;
CREATE ROLE eve LOGIN;
SELECT role FROM pgdp.set_budget('bob', 1e9, 0.5);
CREATE TABLE visits (g int);
INSERT INTO visits SELECT g % 3 FROM generate_series(1, 300) g;
GRANT SELECT ON visits TO bob;
CREATE SCHEMA eve AUTHORIZATION eve;
GRANT USAGE ON SCHEMA eve TO bob;
});
$node->safe_psql(
	'postgres', q{
CREATE TABLE eve.loot (g int, n bigint);
GRANT INSERT ON eve.loot TO PUBLIC;
-- Fetches what is left in the portal named `portal` into her table.
CREATE FUNCTION eve.grab(portal text) RETURNS bigint LANGUAGE plpgsql AS $$
DECLARE
    c refcursor := portal;
    r record;
    n bigint := 0;
BEGIN
    LOOP
        FETCH c INTO r;
        EXIT WHEN NOT FOUND;
        INSERT INTO eve.loot VALUES (r.g, r.dp_count);
        n := n + 1;
    END LOOP;
    RETURN n;
END $$;
}, extra_params => [ '-U', 'eve' ]);

sub simple_query
{
	my ($session, $sql) = @_;
	$session->send(Q($sql));
	return outcome($session->read_until('Z'));
}

# Parse (unnamed statement), Bind to `portal`, Execute `rows` rows, Sync.
sub portal_query
{
	my ($session, $portal, $rows, $sql) = @_;
	$session->send(P('', $sql), B($portal, ''), E($portal, $rows), S());
	return outcome($session->read_until('Z'));
}

my $charges = sub { $node->safe_psql('postgres', q{SELECT count(*) FROM pgdp.charges WHERE role = 'bob'::regrole}) };
my $loot = sub { $node->safe_psql('postgres', 'SELECT count(*) FROM eve.loot') };
my $release = 'SELECT g, dp_count(1e6) FROM visits GROUP BY g ORDER BY g';

my $bob = ProtocolFrontend->connect($node->host, $node->port, 'bob');
is(join(' ', simple_query($bob, "PREPARE rel AS $release")), 'ok ', 'bob prepares a release');

# 1. EXECUTE in portals of the extended protocol.
foreach my $portal ('p1', '')
{
	my $name = $portal eq '' ? 'the unnamed portal' : "portal $portal";
	my $before = $charges->();
	is(join(' ', simple_query($bob, 'BEGIN')), 'ok ', "$name: BEGIN");
	my ($state, $rows) = portal_query($bob, $portal, 1, 'EXECUTE rel');
	is($state, '0A000', "$name: EXECUTE of a release refused");
	is($rows, '', "$name: no row sent");
	($state, $rows) = simple_query($bob, "SELECT eve.grab('$portal')");
	is($state, '25P02', "$name: the transaction is aborted, nothing to fetch");
	simple_query($bob, 'ROLLBACK');
	is($charges->(), $before, "$name: nothing charged for the refusal");
}
is($loot->(), '0', 'eve got no release');

# 2. The same EXECUTE as a simple query.
{
	my $before = $charges->();
	my ($state, $rows) = simple_query($bob, 'EXECUTE rel');
	is($state, 'ok', 'simple-protocol EXECUTE: released');
	is($rows, '0|100,1|100,2|100', 'simple-protocol EXECUTE: every group, exact at epsilon 1e6');
	is($charges->(), $before + 1, 'simple-protocol EXECUTE: charged once');
}

# 3. The release bound directly: a SELECT portal, whose rows the executor computes at each fetch.
{
	my $before = $charges->();
	simple_query($bob, 'BEGIN');
	my ($state, $rows) = portal_query($bob, 'p2', 1, $release);
	is($state, 'ok', 'bound release: first row released');
	is($rows, '0|100', 'bound release: the first group');
	($state, $rows) = simple_query($bob, "SELECT eve.grab('p2')");
	is($state, '42501', "eve's function fetching the rest of the portal is refused");
	simple_query($bob, 'ROLLBACK');
	is($charges->(), $before + 1, 'bound release: charged once');
}
is($loot->(), '0', 'eve got no release');

# The control: eve's function does fetch from a portal of bob's without releases.
{
	simple_query($bob, 'BEGIN');
	portal_query($bob, 'p3', 1, 'SELECT g, count(*) AS dp_count FROM visits GROUP BY g ORDER BY g');
	my ($state, $rows) = simple_query($bob, "SELECT eve.grab('p3')");
	is("$state $rows", 'ok 2', "control: eve's function fetches the rest of a portal without releases");
	simple_query($bob, 'ROLLBACK');
}

$bob->close;
$node->stop;
done_testing();
