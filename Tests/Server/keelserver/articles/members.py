"""
A team's members as a nested resource, the way a stock DRF app nests one without
extra packages: a ModelViewSet that reads the parent from a URL kwarg, lists and
finds only that parent's children, and sets the parent on create.

* ``/drf/teams/<team_pk>/members/`` (list, create)
* ``/drf/teams/<team_pk>/members/<pk>/`` (retrieve, update, partial_update, destroy)

``team_pk`` matches what a DefaultRouter lookup matches (``[^/.]+``); a team that
does not exist is a 404, and one that is not a number fails as it fails in DRF (500).
"""

from django.shortcuts import get_object_or_404
from django.urls import re_path
from rest_framework import serializers, viewsets
from rest_framework.negotiation import DefaultContentNegotiation

from .models import Member, Team


class TeamMemberSerializer(serializers.ModelSerializer):
    class Meta:
        model = Member
        fields = ["id", "team", "email", "role"]
        read_only_fields = ["team"]


class TeamMemberViewSet(viewsets.ModelViewSet):
    serializer_class = TeamMemberSerializer
    content_negotiation_class = DefaultContentNegotiation

    def team(self):
        return get_object_or_404(Team, pk=self.kwargs["team_pk"])

    def get_queryset(self):
        return Member.objects.filter(team=self.team())

    def perform_create(self, serializer):
        serializer.save(team=self.team())


members = TeamMemberViewSet.as_view({"get": "list", "post": "create"})
member = TeamMemberViewSet.as_view(
    {"get": "retrieve", "put": "update", "patch": "partial_update", "delete": "destroy"}
)

urlpatterns = [
    re_path(r"^teams/(?P<team_pk>[^/.]+)/members/$", members, name="team-members"),
    re_path(r"^teams/(?P<team_pk>[^/.]+)/members/(?P<pk>[^/.]+)/$", member, name="team-member"),
]
