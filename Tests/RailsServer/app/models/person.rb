class Person < ApplicationRecord
  # Older Rails apps turned this on for every model (see config/initializers/wrap_parameters.rb):
  # a person renders as {"person": {...}}, and a list of people as [{"person": {...}}, ...].
  self.include_root_in_json = true

  validates :name, presence: true
end
