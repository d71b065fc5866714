class TasksController < ApplicationController
  before_action :set_task, only: [:show, :update, :destroy]

  # GET /tasks: the kept tasks; GET /tasks?updated_since=<ISO 8601>: every task changed after
  # that time, soft-deleted ones included.
  def index
    if params[:updated_since]
      since = Time.iso8601(params[:updated_since]) rescue nil
      return render json: { updated_since: ["is not a valid time"] }, status: :unprocessable_entity unless since
      @tasks = Task.updated_since(since).order(:updated_at, :id)
    else
      @tasks = Task.kept.order(:updated_at, :id)
    end
    render json: @tasks
  end

  # GET /tasks/1
  def show
    render json: @task
  end

  # POST /tasks
  def create
    @task = Task.new(task_params)
    if @task.save
      render json: @task, status: :created, location: @task
    else
      render json: @task.errors, status: :unprocessable_entity
    end
  end

  # PATCH/PUT /tasks/1
  def update
    if @task.update(task_params)
      render json: @task
    else
      render json: @task.errors, status: :unprocessable_entity
    end
  end

  # POST /tasks/bulk {"titles": [...]}: creates one task per title, in order, all or none, each
  # in its own save (so each gets its own event on GET /tasks/stream).
  def bulk
    titles = params.require(:titles)
    return render json: { titles: ["must be a list"] }, status: :unprocessable_entity unless titles.is_a?(Array)

    tasks = titles.map { |title| Task.new(title: title) }
    invalid = tasks.find(&:invalid?)
    return render json: invalid.errors, status: :unprocessable_entity if invalid

    Task.transaction { tasks.each(&:save!) }
    head :no_content
  end

  # DELETE /tasks/1: a soft delete.
  def destroy
    @task.update!(deleted_at: Time.current)
    head :no_content
  end

  private
    def set_task
      @task = Task.kept.find(params[:id])
    end

    def task_params
      params.require(:task).permit(:title, :done)
    end
end
