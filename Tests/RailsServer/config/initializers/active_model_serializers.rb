# ActiveModelSerializers' JSON:API media type, as its guide sets it up: `render jsonapi:`
# renders with the :json_api adapter and answers `application/vnd.api+json`, and request
# bodies of that type are parsed into params. Only the /jsonapi controllers render this way;
# the other controllers' models have no serializer and render as before.
ActiveSupport.on_load(:action_controller) do
  require "active_model_serializers/register_jsonapi_renderer"
end
