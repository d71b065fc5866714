# The outbox of task changes: one row per saved change, written in the same transaction as the
# change, with the task as it was saved. GET /tasks/stream sends them in id order, the row id
# being the event id a client resumes after (Last-Event-ID).
class TaskEvent < ApplicationRecord
  ACTIONS = %w[created updated deleted].freeze

  validates :action, inclusion: { in: ACTIONS }

  scope :after, ->(id) { where("id > ?", id).order(:id) }
end
