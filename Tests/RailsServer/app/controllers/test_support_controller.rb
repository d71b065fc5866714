# Test support, like the Django test server's: POST /__reset deletes every record.
class TestSupportController < ApplicationController
  # POST /__reset
  def reset
    ActiveRecord::Base.transaction do
      [Comment, Article, Author, Invite, Address, User, Organization, Note, Person, Category].each(&:delete_all)
    end
    head :no_content
  end
end
