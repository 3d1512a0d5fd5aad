# smtp-lib.sh - a real SMTP server for a test: aiosmtpd (Debian's
# python3-aiosmtpd) on a free port of 127.0.0.1, writing what it receives
# to the Maildir $MBOX. Sourced after lib.sh; start_server and
# stop_server (also run when the script ends).

"$PY" -c 'import aiosmtpd' 2>"$TRASH/err" ||
	die "aiosmtpd for $PY is missing (apt-get install python3-aiosmtpd): $(cat "$TRASH/err")"

MBOX=$TRASH/mailbox
PORT=$("$PY" -c 'import socket
s = socket.socket()
s.bind(("127.0.0.1", 0))
print(s.getsockname()[1])')
server_pid=

# is_listening: something accepts connections on 127.0.0.1:$PORT
is_listening() {
	"$PY" -c 'import socket, sys
s = socket.socket()
s.settimeout(1)
sys.exit(s.connect_ex(("127.0.0.1", int(sys.argv[1]))))' "$PORT"
}

start_server() {
	"$PY" -m aiosmtpd -n -l "127.0.0.1:$PORT" \
		-c aiosmtpd.handlers.Mailbox "$MBOX" \
		>>"$TRASH/server.log" 2>&1 &
	server_pid=$!
	_i=0
	while ! is_listening; do
		_i=$((_i + 1))
		if [ $_i -gt 100 ] || ! kill -0 "$server_pid" 2>/dev/null; then
			cat "$TRASH/server.log"
			die "the SMTP server listens on 127.0.0.1:$PORT (waited $_i tries)"
		fi
		sleep 0.1
	done
	# the port may have been taken by someone else meanwhile
	sleep 0.1
	kill -0 "$server_pid" 2>/dev/null ||
		die "the SMTP server runs on 127.0.0.1:$PORT: $(cat "$TRASH/server.log")"
}

stop_server() {
	if [ -n "$server_pid" ]; then
		kill "$server_pid" 2>/dev/null
		wait "$server_pid" 2>/dev/null
		server_pid=
	fi
	_i=0
	while is_listening && [ $_i -lt 50 ]; do
		_i=$((_i + 1))
		sleep 0.1
	done
}
at_exit 'stop_server'
