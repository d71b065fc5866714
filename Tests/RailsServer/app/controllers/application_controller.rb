class ApplicationController < ActionController::API
  rescue_from ActiveRecord::RecordNotFound do
    render json: { error: "not found" }, status: :not_found
  end

  private
    # Pages a relation when the request asks for pages (`?page=2&per_page=25`), with the
    # headers pagination gems such as api-pagination send: RFC 8288 `Link` (first, prev,
    # next, last) and the total in `X-Total-Count`. Without `page` and `per_page`, the whole list.
    def paginate(relation)
      return relation unless params[:page] || params[:per_page]

      per_page = (params[:per_page] || 25).to_i.clamp(1, 100)
      total = relation.count
      last = [(total + per_page - 1) / per_page, 1].max
      page = params[:page].to_i.clamp(1, last)
      page_url = ->(number) { "#{request.base_url}#{request.path}?#{{ page: number, per_page: per_page }.to_query}" }

      links = { first: 1, last: last }
      links[:prev] = page - 1 if page > 1
      links[:next] = page + 1 if page < last
      response.headers["Link"] = links.map { |rel, number| %(<#{page_url.call(number)}>; rel="#{rel}") }.join(", ")
      response.headers["X-Total-Count"] = total.to_s
      relation.offset((page - 1) * per_page).limit(per_page)
    end
end
