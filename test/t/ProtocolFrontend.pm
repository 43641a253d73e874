
# A minimal frontend of the PostgreSQL protocol 3.0 over a unix socket, for the TAP tests that
# need what psql cannot send: portals bound by name, Execute with a row limit, messages pipelined
# without Sync, Flush, Describe. Trust authentication only.
#
#   my $s = ProtocolFrontend->connect($node->host, $node->port, 'alice');
#   $s->send(P('', $sql), B('p1', ''), E('p1', 1), S());
#   my @messages = $s->read_until('Z');          # [type, body] each, up to ReadyForQuery
#   my @some = $s->read_until(undef, 2);         # whatever arrives within 2 s
#   my ($state, $rows) = outcome(@messages);     # SQLSTATE of an error or 'ok'; rows as a|b,c|d

package ProtocolFrontend;

use strict;
use warnings;

use Exporter 'import';
use IO::Socket::UNIX;

our @EXPORT = qw(P B E D H S Q outcome notices);

sub connect
{
	my ($class, $host, $port, $user) = @_;
	my $socket = IO::Socket::UNIX->new(Peer => "$host/.s.PGSQL.$port") or die "cannot connect: $!";
	my $body = pack('N', 196608) . "user\0$user\0database\0postgres\0\0";
	print $socket pack('N', length($body) + 4) . $body;
	my $self = bless { socket => $socket, buffer => '' }, $class;
	$self->read_until('Z');
	return $self;
}

sub message { my ($type, $body) = @_; return $type . pack('N', length($body) + 4) . $body; }

sub P { my ($name, $sql) = @_; return message('P', "$name\0$sql\0" . pack('n', 0)); }
sub B { my ($portal, $statement) = @_; return message('B', "$portal\0$statement\0" . pack('nnn', 0, 0, 0)); }
sub E { my ($portal, $rows) = @_; return message('E', "$portal\0" . pack('N', $rows // 0)); }
sub D { my ($kind, $name) = @_; return message('D', "$kind$name\0"); }
sub H { return message('H', ''); }
sub S { return message('S', ''); }
sub Q { return message('Q', "$_[0]\0"); }

sub send
{
	my ($self, @messages) = @_;
	print { $self->{socket} } join('', @messages);
	return;
}

# Messages until one of type $stop (included), or until nothing arrives for $timeout seconds.
sub read_until
{
	my ($self, $stop, $timeout) = @_;
	$timeout //= 30;
	my @messages;
	while (1)
	{
		while (length($self->{buffer}) < 5
			|| length($self->{buffer}) < 1 + unpack('N', substr($self->{buffer}, 1, 4)))
		{
			my $ready = '';
			vec($ready, fileno($self->{socket}), 1) = 1;
			return @messages unless select(my $out = $ready, undef, undef, $timeout);
			my $chunk;
			my $got = sysread($self->{socket}, $chunk, 65536);
			die "connection closed" unless $got;
			$self->{buffer} .= $chunk;
		}
		my $type = substr($self->{buffer}, 0, 1);
		my $length = unpack('N', substr($self->{buffer}, 1, 4));
		push @messages, [ $type, substr($self->{buffer}, 5, $length - 4) ];
		substr($self->{buffer}, 0, 1 + $length) = '';
		return @messages if defined $stop && $type eq $stop;
	}
}

sub close { my ($self) = @_; close($self->{socket}); return; }

# The SQLSTATE of the first error (or 'ok') and the rows, fields joined by '|', rows by ','.
sub outcome
{
	my @messages = @_;
	my ($state, @rows) = ('ok');
	foreach my $m (@messages)
	{
		if ($m->[0] eq 'E' && $state eq 'ok')
		{
			($state) = $m->[1] =~ /C(\w{5})\0/;
		}
		elsif ($m->[0] eq 'D')
		{
			my ($count, $rest) = (unpack('n', $m->[1]), substr($m->[1], 2));
			my @fields;
			for (1 .. $count)
			{
				my $len = unpack('N', $rest);
				push @fields, substr($rest, 4, $len);
				$rest = substr($rest, 4 + $len);
			}
			push @rows, join('|', @fields);
		}
	}
	return ($state, join(',', @rows));
}

# The NoticeResponse messages among @messages, as "SEVERITY: message" lines.
sub notices
{
	my @messages = @_;
	my @lines;
	foreach my $m (grep { $_->[0] eq 'N' } @messages)
	{
		my %field = map { substr($_, 0, 1) => substr($_, 1) } grep { length } split /\0/, $m->[1];
		push @lines, ($field{V} // $field{S} // '?') . ': ' . ($field{M} // '');
	}
	return @lines;
}

1;
