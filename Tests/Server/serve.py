#!/usr/bin/env python3
"""
Keel's integration-test HTTP server.

Binds 127.0.0.1 on an ephemeral port (or --port N), prints exactly one line
``KEEL_TEST_SERVER_PORT=<port>`` to stdout, then serves until standard input
reaches EOF, the parent process goes away, or SIGTERM/SIGINT arrives
(--standalone: only the signals).
Everything else (request logs with KEEL_TEST_SERVER_VERBOSE=1, tracebacks)
goes to stderr. See README.md in this directory for the API.
"""

import argparse
import io
import os
import shutil
import signal
import sys
import tempfile
import threading
import time

sys.dont_write_bytecode = True  # keep __pycache__ out of the source tree
HERE = os.path.dirname(os.path.abspath(__file__))
sys.path.insert(0, HERE)
os.environ["DJANGO_SETTINGS_MODULE"] = "keelserver.settings"


def parse_args():
    parser = argparse.ArgumentParser(description=__doc__, formatter_class=argparse.RawDescriptionHelpFormatter)
    parser.add_argument("--port", type=int, default=0, help="port to bind on 127.0.0.1 (default: ephemeral)")
    parser.add_argument(
        "--standalone",
        action="store_true",
        help="ignore stdin and the parent process; run until SIGTERM/SIGINT (for running by hand in the background)",
    )
    parser.add_argument("--verbose", "-v", action="store_true", help="log every request to stderr")
    return parser.parse_args()


def read_chunked(stream, limit=64 * 1024 * 1024):
    """Decode an HTTP/1.1 chunked body (trailers are read and dropped)."""
    body = bytearray()
    while True:
        line = stream.readline(65537)
        if not line:
            break
        size = int(line.split(b";", 1)[0].strip() or b"0", 16)
        if size == 0:
            while stream.readline(65537) not in (b"\r\n", b"\n", b""):
                pass
            break
        body += stream.read(size)
        stream.readline(65537)  # CRLF after the chunk
        if len(body) > limit:
            raise ValueError("chunked request body too large")
    return bytes(body)


def chunked_body_app(app):
    def wrapper(environ, start_response):
        body = environ.pop("keel.chunked_body", None)
        if body is not None:
            environ["wsgi.input"] = io.BytesIO(body)
            environ["CONTENT_LENGTH"] = str(len(body))
        return app(environ, start_response)

    return wrapper


def main():
    parent = os.getppid()
    # Foundation's Process on Linux can hand its child a signal mask with
    # SIGTERM blocked (inherited from a Dispatch thread): unblock everything so
    # Process.terminate() works.
    if hasattr(signal, "pthread_sigmask"):
        signal.pthread_sigmask(signal.SIG_SETMASK, [])
    args = parse_args()
    if args.verbose:
        os.environ["KEEL_TEST_SERVER_VERBOSE"] = "1"

    # A fresh SQLite file per server process (the stock DRF resources and the
    # Drupal sessions), deleted again whenever the server exits normally.
    # A caller that names the file (KEEL_TEST_SERVER_DB) keeps it: a test that stops
    # and starts the server keeps its records.
    database_dir = None
    if not os.environ.get("KEEL_TEST_SERVER_DB"):
        database_dir = tempfile.mkdtemp(prefix="keel-test-server-")
        os.environ["KEEL_TEST_SERVER_DB"] = os.path.join(database_dir, "db.sqlite3")

    def remove_database():
        if database_dir is not None:
            shutil.rmtree(database_dir, ignore_errors=True)

    def exit_now(*_):
        remove_database()
        os._exit(0)

    import django

    try:
        django.setup()

        from django.core.management import call_command
        from django.db import connection

        call_command("migrate", verbosity=0, interactive=False)
        connection.close()
    except BaseException:
        remove_database()
        raise

    from django.core.servers.basehttp import ThreadedWSGIServer, WSGIRequestHandler
    from django.core.wsgi import get_wsgi_application

    verbose = os.environ.get("KEEL_TEST_SERVER_VERBOSE", "") not in ("", "0")

    class Handler(WSGIRequestHandler):
        def get_environ(self):
            env = super().get_environ()
            env["RAW_URI"] = self.path  # undecoded request target, as gunicorn names it
            # wsgiref invents "text/plain" / "" for absent headers; report absence.
            if self.headers.get("Content-Type") is None:
                env.pop("CONTENT_TYPE", None)
            if self.headers.get("Content-Length") is None:
                env.pop("CONTENT_LENGTH", None)
            if "chunked" in self.headers.get("Transfer-Encoding", "").lower():
                # wsgiref ignores chunked request bodies (URLSession sends them
                # for httpBodyStream): decode here, hand over in chunked_body_app.
                # CONTENT_LENGTH stays "0" here: Django's ServerHandler drains
                # that many bytes of the socket after the response.
                env["keel.chunked_body"] = read_chunked(self.rfile)
                env["CONTENT_LENGTH"] = "0"
            return env

        def log_message(self, format, *args):
            if verbose:
                sys.stderr.write("keel test server: %s %s\n" % (self.address_string(), format % args))

    class Server(ThreadedWSGIServer):
        request_queue_size = 128  # parallel tests open many connections at once

    # A fixed --port can be taken again at once by a server a test restarts, although
    # the previous one's connections linger in TIME_WAIT or FIN_WAIT2 (SO_REUSEADDR and
    # SO_REUSEPORT; both servers set them, so only a restart shares the port).
    Server.allow_reuse_port = args.port != 0
    httpd = Server(("127.0.0.1", args.port), Handler, allow_reuse_address=args.port != 0)
    httpd.set_app(chunked_body_app(get_wsgi_application()))
    port = httpd.server_address[1]

    serving = threading.Thread(target=httpd.serve_forever, kwargs={"poll_interval": 0.2}, daemon=True)
    serving.start()

    sys.stdout.write(f"KEEL_TEST_SERVER_PORT={port}\n")
    sys.stdout.flush()
    # Nothing else may reach the stdout pipe (the launcher stops reading it).
    os.dup2(sys.stderr.fileno(), sys.stdout.fileno())

    signal.signal(signal.SIGTERM, exit_now)
    signal.signal(signal.SIGINT, exit_now)

    if args.standalone:
        while True:
            time.sleep(3600)

    signal.signal(signal.SIGHUP, exit_now)

    # Exit if our parent dies (we get re-parented) even if stdin stays open
    # because some other process inherited the pipe's write end.
    def watch_parent():
        while True:
            time.sleep(0.5)
            if os.getppid() != parent:
                exit_now()

    threading.Thread(target=watch_parent, daemon=True).start()

    try:
        while os.read(0, 65536):
            pass
    except OSError:
        pass
    exit_now()


if __name__ == "__main__":
    main()
