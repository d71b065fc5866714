class Author < ApplicationRecord
  has_many :articles, dependent: :destroy
  has_many :comments, dependent: :destroy

  # A pen name or an email is enough; an author with neither is invalid as a whole.
  validate do
    errors.add(:base, "An author needs a name or an email") if name.blank? && email.blank?
  end
end
