# A record with soft deletes (`deleted_at`, as the discard and paranoia gems keep them) and an
# `updated_since` scope, so that clients can pull what changed, deletions included.
class Task < ApplicationRecord
  validates :title, presence: true

  scope :kept, -> { where(deleted_at: nil) }
  scope :updated_since, ->(time) { where("updated_at > ?", time) }
end
