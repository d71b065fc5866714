#!/usr/bin/env python3
"""
Keel's integration-test HTTP server.

Binds 127.0.0.1 on an ephemeral port (or --port N) and serves the Django app
there with gunicorn (one gthread worker); once the worker has loaded the app,
prints exactly one line ``KEEL_TEST_SERVER_PORT=<port>`` to stdout, then serves
until standard input reaches EOF, the parent process goes away, or
SIGTERM/SIGINT/SIGHUP arrives (--standalone: only the signals).
Everything else (request logs with KEEL_TEST_SERVER_VERBOSE=1, tracebacks)
goes to stderr. See README.md in this directory for the API.
"""

import argparse
import os
import shutil
import signal
import socket
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

    listener = listening_socket(args.port)
    server = gunicorn_server(listener, verbose=os.environ.get("KEEL_TEST_SERVER_VERBOSE", "") not in ("", "0"))

    if not args.standalone:
        # Exit when stdin reaches EOF or our parent dies (we get re-parented, while stdin
        # stays open because some other process inherited the pipe's write end).
        threading.Thread(target=watch_stdin, daemon=True).start()
        threading.Thread(target=watch_parent, args=(parent,), daemon=True).start()

    try:
        server.run()
    finally:
        remove_database()


def listening_socket(port):
    """
    The server's socket on 127.0.0.1, bound and listening here so that the port is known
    before gunicorn starts (gunicorn serves it as ``fd://N``).

    A fixed --port can be taken again at once by a server a test restarts, although the
    previous one's connections linger in TIME_WAIT or FIN_WAIT2 (SO_REUSEADDR and
    SO_REUSEPORT; both servers set them, so only a restart shares the port).
    """
    listener = socket.socket(socket.AF_INET, socket.SOCK_STREAM)
    if port:
        listener.setsockopt(socket.SOL_SOCKET, socket.SO_REUSEADDR, 1)
        listener.setsockopt(socket.SOL_SOCKET, socket.SO_REUSEPORT, 1)
    listener.bind(("127.0.0.1", port))
    listener.listen(1024)  # parallel tests open many connections at once
    listener.set_inheritable(True)
    return listener


def gunicorn_server(listener, verbose):
    """
    gunicorn, as Django is deployed: one worker process (the in-memory resources live in
    it) with gunicorn's threaded worker, serving ``listener``. SIGTERM stops it gracefully
    (in-flight requests get three seconds), SIGINT and SIGHUP at once.
    """
    from django.core.wsgi import get_wsgi_application
    from gunicorn.app.base import BaseApplication
    from gunicorn.arbiter import Arbiter

    class QuittingArbiter(Arbiter):
        def handle_hup(self):
            # A hang-up ends the server, as it ends any test server; gunicorn would reload.
            raise StopIteration

    class Server(BaseApplication):
        def load_config(self):
            settings = {
                "bind": [f"fd://{listener.fileno()}"],
                "workers": 1,
                "worker_class": "gthread",
                "threads": 64,  # /slow holds a thread for as long as it sleeps
                "worker_connections": 4096,
                "keepalive": 30,
                "graceful_timeout": 3,
                "timeout": 120,
                "preload_app": True,
                "errorlog": "-",
                "loglevel": "info" if verbose else "warning",
                "accesslog": "-" if verbose else None,
                "proc_name": "keel-test-server",
                "control_socket_disable": True,  # one path per user would collide across servers
                "post_worker_init": announce_port,
            }
            for key, value in settings.items():
                self.cfg.set(key, value)

        def load(self):
            return get_wsgi_application()

        def run(self):
            QuittingArbiter(self).run()

    return Server()


def announce_port(worker):
    """
    Prints the port line once the worker can answer (gunicorn's post_worker_init hook, in
    the worker), so that the launcher sends nothing before the app is loaded.
    """
    port = worker.sockets[0].getsockname()[1]
    try:
        sys.stdout.write(f"KEEL_TEST_SERVER_PORT={port}\n")
        sys.stdout.flush()
    except OSError:
        pass  # a worker started again after the launcher stopped reading
    # Nothing else may reach the stdout pipe (the launcher stops reading it).
    os.dup2(sys.stderr.fileno(), sys.stdout.fileno())


def watch_stdin():
    try:
        while os.read(0, 65536):
            pass
    except OSError:
        pass
    os.kill(os.getpid(), signal.SIGINT)


def watch_parent(parent):
    while os.getppid() == parent:
        time.sleep(0.5)
    os.kill(os.getpid(), signal.SIGINT)


if __name__ == "__main__":
    main()
