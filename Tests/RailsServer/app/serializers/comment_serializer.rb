class CommentSerializer < ActiveModel::Serializer
  attributes :body, :created_at, :updated_at

  belongs_to :article
  belongs_to :author
end
