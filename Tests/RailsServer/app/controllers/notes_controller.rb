class NotesController < ApplicationController
  NOTE_ATTRIBUTES = [:title, :body, :done, :priority, :due_at, :due_on].freeze

  before_action :set_note, only: [:show, :update, :destroy, :complete]

  # GET /notes
  def index
    @notes = paginate(Note.order(:id))

    render json: @notes
  end

  # GET /notes/1
  def show
    render json: @note
  end

  # POST /notes
  def create
    @note = Note.new(note_params)

    if @note.save
      render json: @note, status: :created, location: @note
    else
      render json: @note.errors, status: :unprocessable_entity
    end
  end

  # POST /notes/bulk: several notes in one request ({"notes": [{...}, ...]}), all or none.
  def bulk
    @notes = params.require(:notes).map { |attributes| Note.new(attributes.permit(*NOTE_ATTRIBUTES)) }

    if @notes.all?(&:valid?)
      Note.transaction { @notes.each(&:save!) }
      render json: @notes, status: :created
    else
      render json: @notes.map(&:errors), status: :unprocessable_entity
    end
  end

  # PATCH/PUT /notes/1
  def update
    if @note.update(note_params)
      render json: @note
    else
      render json: @note.errors, status: :unprocessable_entity
    end
  end

  # PATCH /notes/1/complete
  def complete
    @note.update!(done: true)
    render json: @note
  end

  # DELETE /notes/1
  def destroy
    @note.destroy
    head :no_content
  end

  private
    # Use callbacks to share common setup or constraints between actions.
    def set_note
      @note = Note.find(params[:id])
    end

    # Only allow a list of trusted parameters through.
    def note_params
      params.require(:note).permit(*NOTE_ATTRIBUTES)
    end
end
