require_relative "boot"

require "rails"
# Pick the frameworks you want:
require "active_model/railtie"
require "active_record/railtie"
require "action_controller/railtie"

# What Bundler.require would load from the Gemfile: the /jsonapi controllers render with
# ActiveModelSerializers' :json_api adapter and page with Kaminari.
require "active_model_serializers"
require "kaminari"

module RailsServer
  class Application < Rails::Application
    # Initialize configuration defaults for originally generated Rails version.
    config.load_defaults 6.1

    # Configuration for the application, engines, and railties goes here.
    #
    # These settings can be overridden in specific environments using the files
    # in config/environments, which are processed later.

    # Only loads a smaller set of middleware suitable for API only apps.
    # Middleware like session, flash, cookies can be added back manually.
    # Skip views, helpers and assets when generating a new resource.
    config.api_only = true

    # One request at a time (Rack::Lock; Puma's threads still read and write the other
    # connections meanwhile). SQLite takes one writer at a time, and the sqlite3 gem 1.4 waits
    # for a lock without releasing Ruby's global lock, so concurrent requests could fail with
    # SQLite3::BusyException.
    #
    # `serve --concurrent` (KEEL_RAILS_CONCURRENT=1) keeps the production default instead
    # (concurrent requests, no Rack::Lock) for Server-Sent Events: Rack::Lock is held until a
    # response's body is closed, so one open stream would hold back every other request.
    config.allow_concurrency = false unless ENV["KEEL_RAILS_CONCURRENT"] == "1"
  end
end
