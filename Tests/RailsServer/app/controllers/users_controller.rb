# A user renders with its invites, its address and its organization, and saves its invites and
# its address with it (accepts_nested_attributes_for).
class UsersController < ApplicationController
  before_action :set_user, only: [:show, :update, :destroy]

  # GET /users
  def index
    @users = User.includes(:invites, :address, :organization)

    render json: @users, include: [:invites, :address, :organization]
  end

  # GET /users/1
  def show
    render json: @user, include: [:invites, :address, :organization]
  end

  # POST /users
  def create
    @user = User.new(user_params)

    if @user.save
      render json: @user, include: [:invites, :address, :organization], status: :created, location: @user
    else
      render json: { errors: @user.errors }, status: :unprocessable_entity
    end
  end

  # PATCH/PUT /users/1
  def update
    if @user.update(user_params)
      render json: @user, include: [:invites, :address, :organization]
    else
      render json: { errors: @user.errors }, status: :unprocessable_entity
    end
  end

  # DELETE /users/1
  def destroy
    @user.destroy
    head :no_content
  end

  private
    # Use callbacks to share common setup or constraints between actions.
    def set_user
      @user = User.find(params[:id])
    end

    # Only allow a list of trusted parameters through.
    def user_params
      params.require(:user).permit(
        :name, :organization_id,
        invites_attributes: [:id, :email, :_destroy],
        address_attributes: [:id, :city, :_destroy]
      )
    end
end
