module Jsonapi
  class AuthorsController < BaseController
    before_action :set_author, only: [:show, :update, :destroy]

    # GET /jsonapi/authors
    def index
      render jsonapi: paginate(Author.order(:id)), **jsonapi_options
    end

    # GET /jsonapi/authors/1
    def show
      render jsonapi: @author, **jsonapi_options
    end

    # POST /jsonapi/authors
    def create
      @author = Author.new(author_params)

      if @author.save
        render jsonapi: @author, status: :created, location: jsonapi_author_url(@author), **jsonapi_options
      else
        render_errors(@author)
      end
    end

    # PATCH/PUT /jsonapi/authors/1
    def update
      if @author.update(author_params)
        render jsonapi: @author, **jsonapi_options
      else
        render_errors(@author)
      end
    end

    # DELETE /jsonapi/authors/1
    def destroy
      @author.destroy
      head :no_content
    end

    private
      def set_author
        @author = Author.find(params[:id])
      end

      def author_params
        ActiveModelSerializers::Deserialization.jsonapi_parse!(params, only: [:name, :email])
      end
  end
end
