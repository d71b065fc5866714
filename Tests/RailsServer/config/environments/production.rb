Rails.application.configure do
  # Settings specified here will take precedence over those in config/application.rb.

  # Code is not reloaded between requests.
  config.cache_classes = true

  # Eager load code on boot.
  config.eager_load = true

  # Full error reports are disabled: errors are answered like a deployed app answers them.
  config.consider_all_requests_local = false

  # Nothing here is cached between requests.
  config.cache_store = :null_store

  # Requests are logged to stderr with KEEL_TEST_SERVER_VERBOSE=1; otherwise nothing is logged.
  if ENV["KEEL_TEST_SERVER_VERBOSE"].present? && ENV["KEEL_TEST_SERVER_VERBOSE"] != "0"
    config.log_level = :info
    config.logger = ActiveSupport::Logger.new($stderr)
  else
    config.logger = ActiveSupport::Logger.new(IO::NULL)
  end

  # Send deprecation notices to registered listeners.
  config.active_support.deprecation = :notify
end
