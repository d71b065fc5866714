# A user's invites: /users/:user_id/invites. Another user's invite is not found (404).
class InvitesController < ApplicationController
  before_action :set_user
  before_action :set_invite, only: [:show, :update, :destroy]

  # GET /users/1/invites
  def index
    @invites = @user.invites

    render json: @invites
  end

  # GET /users/1/invites/1
  def show
    render json: @invite
  end

  # POST /users/1/invites
  def create
    @invite = @user.invites.new(invite_params)

    if @invite.save
      render json: @invite, status: :created, location: [@user, @invite]
    else
      render json: { errors: @invite.errors }, status: :unprocessable_entity
    end
  end

  # PATCH/PUT /users/1/invites/1
  def update
    if @invite.update(invite_params)
      render json: @invite
    else
      render json: { errors: @invite.errors }, status: :unprocessable_entity
    end
  end

  # DELETE /users/1/invites/1
  def destroy
    @invite.destroy
    head :no_content
  end

  private
    # Use callbacks to share common setup or constraints between actions.
    def set_user
      @user = User.find(params[:user_id])
    end

    def set_invite
      @invite = @user.invites.find(params[:id])
    end

    # Only allow a list of trusted parameters through.
    def invite_params
      params.require(:invite).permit(:email)
    end
end
