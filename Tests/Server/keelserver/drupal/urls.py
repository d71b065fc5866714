from django.urls import re_path

from . import core, jsonapi, services

# Drupal 8+ core REST (?_format=json), a Views REST export, and core's JSON:API module for
# article nodes (/jsonapi/node/article).
# Drupal 7 Services, endpoint path "d7"; the response format comes from the
# extension (.json) or the Accept header.
urlpatterns = [
    re_path(r"^session/token$", core.session_token),
    re_path(r"^user/login$", core.user_login),
    re_path(r"^user/logout$", core.user_logout),
    re_path(r"^node$", core.node_collection),
    re_path(r"^node/(?P<nid>[^/]+)$", core.node_item),
    re_path(r"^api/articles$", core.article_list),
    re_path(r"^jsonapi/node/article$", jsonapi.collection),
    re_path(r"^jsonapi/node/article/(?P<node_uuid>[0-9a-f-]+)$", jsonapi.item),
    re_path(r"^d7/user/(?P<action>login|logout|token)(?P<ext>\.[A-Za-z0-9_]+)?$", services.user_action),
    re_path(r"^d7/node(?P<ext>\.[A-Za-z0-9_]+)?$", services.node_index_or_create),
    re_path(r"^d7/node/(?P<nid>[0-9]+)(?P<ext>\.[A-Za-z0-9_]+)?$", services.node_item),
]
