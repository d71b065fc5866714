# A record with soft deletes (`deleted_at`, as the discard and paranoia gems keep them) and an
# `updated_since` scope, so that clients can pull what changed, deletions included. Every save
# also writes a TaskEvent (created, updated, or deleted when it sets `deleted_at`), which
# GET /tasks/stream pushes.
class Task < ApplicationRecord
  has_many :events, class_name: "TaskEvent"

  validates :title, presence: true

  scope :kept, -> { where(deleted_at: nil) }
  scope :updated_since, ->(time) { where("updated_at > ?", time) }

  after_create { record_event("created") }
  after_update { record_event(saved_change_to_deleted_at? && deleted_at ? "deleted" : "updated") }

  private
    def record_event(action)
      events.create!(action: action, data: to_json)
    end
end
