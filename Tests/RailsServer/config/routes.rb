Rails.application.routes.draw do
  # For details on the DSL available within this file, see https://guides.rubyonrails.org/routing.html
  resources :notes do
    member do
      patch :complete
    end
    collection do
      post :bulk
    end
  end
  resources :people
  resources :categories
  resources :organizations
  resources :profiles, only: [:create, :update]
  resources :tasks do
    collection do
      post :bulk
      get :stream, to: "task_streams#show" # Server-Sent Events (ActionController::Live)
    end
  end
  resources :users do
    resources :invites
  end

  # JSON:API with ActiveModelSerializers' :json_api adapter (app/controllers/jsonapi).
  namespace :jsonapi do
    resources :authors
    resources :articles
    resources :comments
  end

  # Test support: deletes every record.
  post "__reset", to: "test_support#reset"
end
