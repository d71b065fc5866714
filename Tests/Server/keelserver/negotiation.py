from rest_framework.negotiation import DefaultContentNegotiation


class AlwaysJSON(DefaultContentNegotiation):
    """Ignore the Accept header: every DRF response is rendered as JSON (no 406)."""

    def select_renderer(self, request, renderers, format_suffix=None):
        return (renderers[0], renderers[0].media_type)
