module Jsonapi
  class CommentsController < BaseController
    before_action :set_comment, only: [:show, :update, :destroy]

    # GET /jsonapi/comments
    def index
      render jsonapi: paginate(Comment.order(:id)), **jsonapi_options
    end

    # GET /jsonapi/comments/1
    def show
      render jsonapi: @comment, **jsonapi_options
    end

    # POST /jsonapi/comments
    def create
      @comment = Comment.new(comment_params)

      if @comment.save
        render jsonapi: @comment, status: :created, location: jsonapi_comment_url(@comment), **jsonapi_options
      else
        render_errors(@comment)
      end
    end

    # PATCH/PUT /jsonapi/comments/1
    def update
      if @comment.update(comment_params)
        render jsonapi: @comment, **jsonapi_options
      else
        render_errors(@comment)
      end
    end

    # DELETE /jsonapi/comments/1
    def destroy
      @comment.destroy
      head :no_content
    end

    private
      def set_comment
        @comment = Comment.find(params[:id])
      end

      def comment_params
        ActiveModelSerializers::Deserialization.jsonapi_parse!(params, only: [:body, :article, :author])
      end
  end
end
