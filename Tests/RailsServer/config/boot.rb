# A stock Rails app sets up its gems with Bundler here. This one runs on the system's gems
# alone (Debian's ruby-rails, puma and ruby-sqlite3, from Scripts/install-rails-server.sh), so
# it activates the versions it was written for directly and never reaches for rubygems.org.
gem "rails", "~> 6.1.0"
gem "puma", ">= 5.0"
gem "sqlite3", "~> 1.4"
gem "active_model_serializers", "~> 0.10.12"
gem "kaminari", "~> 1.2"
