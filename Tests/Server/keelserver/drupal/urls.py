from django.urls import re_path

from . import core, services

# Drupal 8+ core REST (?_format=json) and a Views REST export.
# Drupal 7 Services, endpoint path "d7"; the response format comes from the
# extension (.json) or the Accept header.
urlpatterns = [
    re_path(r"^session/token$", core.session_token),
    re_path(r"^user/login$", core.user_login),
    re_path(r"^user/logout$", core.user_logout),
    re_path(r"^node$", core.node_collection),
    re_path(r"^node/(?P<nid>[^/]+)$", core.node_item),
    re_path(r"^api/articles$", core.article_list),
    re_path(r"^d7/user/(?P<action>login|logout|token)(?P<ext>\.[A-Za-z0-9_]+)?$", services.user_action),
    re_path(r"^d7/node(?P<ext>\.[A-Za-z0-9_]+)?$", services.node_index_or_create),
    re_path(r"^d7/node/(?P<nid>[0-9]+)(?P<ext>\.[A-Za-z0-9_]+)?$", services.node_item),
]
