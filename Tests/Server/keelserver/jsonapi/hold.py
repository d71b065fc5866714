"""
A test-only hold, off unless both variables are set when the server starts:
``KEEL_TEST_SERVER_HOLD_MARKER`` (a text) and ``KEEL_TEST_SERVER_HOLD_FILE`` (a path).

Before the server saves an author or an article of this app whose name or title contains the
marker, a ``pre_save`` receiver writes that name to the file and sleeps (up to a minute, then
carries on), as a receiver that does slow work before a save (a call to another service)
holds a request in a real app. Inside an Atomic Operations batch this is inside the batch's
transaction: the operations before the held one are applied and nothing is committed. A test
waits for the file, then kills the server while it processes the request.
"""

import os
import time

from django.db.models.signals import pre_save

MARKER = os.environ.get("KEEL_TEST_SERVER_HOLD_MARKER", "")
FILE = os.environ.get("KEEL_TEST_SERVER_HOLD_FILE", "")
SECONDS = 60


def hold(sender, instance, **kwargs):
    text = getattr(instance, "name", None) or getattr(instance, "title", None) or ""
    if MARKER not in text:
        return
    # Written whole under another name, then renamed, so the file never appears half-written.
    partial = f"{FILE}.partial"
    with open(partial, "w", encoding="utf-8") as file:
        file.write(text)
    os.replace(partial, FILE)
    time.sleep(SECONDS)


def connect(*models):
    if not (MARKER and FILE):
        return
    for model in models:
        pre_save.connect(hold, sender=model, dispatch_uid=f"keel-test-hold-{model.__name__}")
