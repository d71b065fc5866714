class User < ApplicationRecord
  belongs_to :organization, optional: true
  has_many :invites, dependent: :destroy
  has_one :address, dependent: :destroy
  accepts_nested_attributes_for :invites, allow_destroy: true
  accepts_nested_attributes_for :address, allow_destroy: true

  validates :name, presence: true
end
