class ArticleSerializer < ActiveModel::Serializer
  attributes :title, :body, :published_at, :created_at, :updated_at

  belongs_to :author
  has_many :comments

  meta do
    { "comment-count" => object.comments.size }
  end
end
