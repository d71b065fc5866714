module Jsonapi
  class ArticlesController < BaseController
    before_action :set_article, only: [:show, :update, :destroy]

    # GET /jsonapi/articles
    def index
      @articles = Article.includes(:author, comments: :author).order(:id)
      @articles = @articles.where("title LIKE ?", "%#{params[:filter][:title]}%") if params.dig(:filter, :title)

      render jsonapi: paginate(@articles), **jsonapi_options
    end

    # GET /jsonapi/articles/1
    def show
      render jsonapi: @article, **jsonapi_options
    end

    # POST /jsonapi/articles
    def create
      @article = Article.new(article_params)

      if @article.save
        render jsonapi: @article, status: :created, location: jsonapi_article_url(@article), **jsonapi_options
      else
        render_errors(@article)
      end
    end

    # PATCH/PUT /jsonapi/articles/1
    def update
      if @article.update(article_params)
        render jsonapi: @article, **jsonapi_options
      else
        render_errors(@article)
      end
    end

    # DELETE /jsonapi/articles/1
    def destroy
      @article.destroy
      head :no_content
    end

    private
      def set_article
        @article = Article.find(params[:id])
      end

      # `only` names the members as they arrive, before the deserializer underscores them.
      def article_params
        ActiveModelSerializers::Deserialization.jsonapi_parse!(params, only: %i[title body published-at author])
      end
  end
end
