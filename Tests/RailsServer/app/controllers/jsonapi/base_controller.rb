# The JSON:API controllers' shared parts, as an ActiveModelSerializers app writes them:
# `render jsonapi:` (the :json_api adapter), `include` and sparse `fields` from the query,
# error objects for a missing record or a document that is not JSON:API.
module Jsonapi
  class BaseController < ApplicationController
    rescue_from ActiveRecord::RecordNotFound do
      render jsonapi: { errors: [{ status: "404", title: "Record not found" }] }, status: :not_found
    end

    rescue_from ActiveModelSerializers::Adapter::JsonApi::Deserialization::InvalidDocument do |error|
      render jsonapi: { errors: [{ status: "400", title: "Invalid document", detail: error.message }] },
             status: :bad_request
    end

    private
      # The options every render passes on: `?include=author,comments.author` and
      # `?fields[articles]=title,published-at` (member names as the adapter dasherizes them).
      def jsonapi_options
        fields = params.fetch(:fields, {}).permit!.to_h.transform_values { |list| list.split(",").map(&:underscore) }
        { include: params[:include], fields: fields }
      end

      # Validation errors as AMS renders them: one error object per message, each at
      # /data/attributes/<dasherized name>.
      def render_errors(record)
        render jsonapi: record, status: :unprocessable_entity, serializer: ActiveModel::Serializer::ErrorSerializer
      end

      # `page[number]` and `page[size]`, which AMS's pagination links carry, through Kaminari.
      def paginate(relation)
        return relation unless params[:page].respond_to?(:key?)

        relation.page(params[:page][:number]).per(params[:page][:size])
      end
  end
end
