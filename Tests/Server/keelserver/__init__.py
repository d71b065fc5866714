"""Keel's integration-test HTTP server (Django + Django REST framework)."""
