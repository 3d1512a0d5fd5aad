"""smtp-server.py - a real SMTP server for a test (aiosmtpd, Debian's
python3-aiosmtpd) whose port no other program can take while the test
runs, so that two suites on one machine never meet.

    smtp-server.py PORTFILE mailbox DIR   every message into the Maildir DIR
    smtp-server.py PORTFILE refuse-bob    550 for bob@..., 250 for the rest

It binds a port of 127.0.0.1 that the kernel chooses and writes it to
PORTFILE, then holds it without listening: a client is refused at once,
as by a server that is down. SIGUSR1 starts listening on it (the server
is up: the file PORTFILE.up appears), SIGUSR2 stops (down again:
PORTFILE.up goes; the port is still held), SIGTERM ends it. A port
chosen free and bound later could be taken meanwhile by another suite's
server, and the test would talk to that one.
"""
import asyncio
import os
import signal
import socket
import sys

from aiosmtpd.handlers import Mailbox
from aiosmtpd.smtp import SMTP


class RefuseBob:
    async def handle_RCPT(self, server, session, envelope, address, options):
        if address.startswith("bob@"):
            return ("550 5.1.1 <bob@example.org>: Recipient address rejected: "
                    "User unknown in local recipient table")
        envelope.rcpt_tos.append(address)
        return "250 OK"

    async def handle_DATA(self, server, session, envelope):
        return "250 OK"


def reusable():
    s = socket.socket()
    s.setsockopt(socket.SOL_SOCKET, socket.SO_REUSEADDR, 1)
    return s


def main():
    portfile, kind = sys.argv[1], sys.argv[2]
    handler = Mailbox(sys.argv[3]) if kind == "mailbox" else RefuseBob()
    # the holder: bound, never listening (the kernel gives its port to no
    # one else; our own listener binds beside it with SO_REUSEADDR)
    holder = reusable()
    holder.bind(("127.0.0.1", 0))
    port = holder.getsockname()[1]
    loop = asyncio.new_event_loop()
    state = {"server": None}

    async def up():
        if state["server"]:
            return
        s = reusable()
        s.bind(("127.0.0.1", port))
        s.listen(16)
        state["server"] = await loop.create_server(lambda: SMTP(handler), sock=s)
        open(portfile + ".up", "w").close()

    async def down():
        if not state["server"]:
            return
        state["server"].close()
        await state["server"].wait_closed()
        state["server"] = None
        os.unlink(portfile + ".up")

    loop.add_signal_handler(signal.SIGUSR1, lambda: loop.create_task(up()))
    loop.add_signal_handler(signal.SIGUSR2, lambda: loop.create_task(down()))
    loop.add_signal_handler(signal.SIGTERM, loop.stop)
    with open(portfile + ".tmp", "w") as f:
        f.write("%d\n" % port)
    os.rename(portfile + ".tmp", portfile)
    loop.run_forever()


main()
