from django.urls import include, path, re_path

from . import resilience, views
from .idempotency.middleware import creates

# No trailing slashes needed (APPEND_SLASH is off); one is tolerated on notes
# and todos. Note and todo ids: digits. User ids: anything (the view re-reads the raw, still
# percent-encoded path so /users/a%2Fb means the id "a/b").
urlpatterns = [
    re_path(r"^notes/?$", views.NoteList.as_view()),
    re_path(r"^notes/(?P<note_id>[0-9]+)/?$", views.NoteDetail.as_view()),
    re_path(r"^todos/?$", views.TodoList.as_view()),
    re_path(r"^todos/(?P<todo_id>[0-9]+)/?$", views.TodoDetail.as_view()),
    re_path(r"^users/?$", views.UserList.as_view()),
    re_path(r"^users/(?P<user_id>[\s\S]+)$", views.UserDetail.as_view()),
    re_path(r"^echo(?:/(?P<rest>[\s\S]*))?$", views.echo),
    re_path(r"^slow/?$", views.slow),
    re_path(r"^malformed/?$", views.malformed),
    re_path(r"^server-error/?$", views.server_error),
    re_path(r"^status/(?P<code>[0-9]{3})/?$", views.status_code),
    re_path(r"^website/(?P<code>[0-9]{3})(?:/.*)?$", views.website),
    re_path(r"^__reset/?$", views.reset),
    re_path(r"^__creates/?$", creates),
    # Request management: retries, conditional GETs, expiring bearer tokens.
    re_path(r"^flaky/(?P<key>[A-Za-z0-9_-]+)/attempts$", resilience.flaky_attempts),
    re_path(r"^flaky/(?P<key>[A-Za-z0-9_-]+)$", resilience.flaky),
    re_path(r"^documents/(?P<key>[A-Za-z0-9_-]+)$", resilience.document),
    re_path(r"^auth/token$", resilience.issue_token),
    re_path(r"^auth/me$", resilience.Me.as_view()),
    # A stock Django REST framework resource: DefaultRouter, trailing slashes.
    path("drf/", include("keelserver.articles.urls")),
    # Documents with an optional FileField, paged by PageNumberPagination (page size ?size=N).
    path("library/", include("keelserver.library.urls")),
    # A captive portal and a broken proxy: every request answered 200 text/html, or 201 {oops.
    path("portal/", include("keelserver.portal")),
    # djangorestframework-jsonapi's stock set-up: articles, authors and comments as JSON:API.
    path("jsonapi/", include("keelserver.jsonapi.urls")),
    # Changes from the server: an updated_since filter with soft deletes, and an SSE stream.
    path("changes/", include("keelserver.changes.urls")),
    # Notes as form-urlencoded replies and XML property lists, for RESTSync's body codecs.
    path("codecs/", include("keelserver.codecs")),
    # Drupal 8+ core REST and Drupal 7 Services emulations (cookie sessions, X-CSRF-Token).
    path("", include("keelserver.drupal.urls")),
]

handler404 = "keelserver.views.handler404"
handler500 = "keelserver.views.handler500"
