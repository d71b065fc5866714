# GET /tasks/stream: every change to a task, as it is saved, as Server-Sent Events with
# ActionController::Live. Each event is a TaskEvent row: `id:` (the row id), `event:` (created,
# updated or deleted) and `data:` (the task as it was saved, as GET /tasks/:id renders it). The
# stream resumes after the `Last-Event-ID` request header; without one it starts with the next
# change. A comment every second keeps proxies from closing a quiet stream; the stream ends
# when the client goes away or the server stops.
#
# Each open stream holds a Puma thread and, while it reads, a database connection: the stream
# needs a server that takes concurrent requests (see ../../README.md, "Streams").
class TaskStreamsController < ApplicationController
  include ActionController::Live

  POLL_INTERVAL = 0.05 # seconds between reads of the outbox
  HEARTBEAT_INTERVAL = 1.0 # seconds of quiet before a heartbeat comment
  BATCH_SIZE = 200

  # GET /tasks/stream
  def show
    response.headers["Content-Type"] = "text/event-stream"
    response.headers["Cache-Control"] = "no-cache"
    response.headers["X-Accel-Buffering"] = "no" # nginx: pass each event on as it comes
    # Rack::ETag, in the API middleware stack, reads a 200's whole body to digest it before
    # sending a byte, unless the response has a Last-Modified (or ETag) header.
    response.headers["Last-Modified"] = Time.now.httpdate

    cursor = resume_after || with_database { TaskEvent.maximum(:id) } || 0
    response.stream.write("retry: 250\n: connected\n\n") # commits the headers now
    sse = ActionController::Live::SSE.new(response.stream)
    quiet_since = now
    until ServerShutdown.begun?
      events = with_database { TaskEvent.after(cursor).limit(BATCH_SIZE).to_a }
      events.each do |event|
        sse.write(event.data, id: event.id, event: event.action)
        cursor = event.id
      end
      if events.any?
        quiet_since = now
        next
      end

      if now - quiet_since >= HEARTBEAT_INTERVAL
        response.stream.write(": heartbeat\n\n")
        quiet_since = now
      end
      ServerShutdown.wait(POLL_INTERVAL)
    end
  rescue ActionController::Live::ClientDisconnected, IOError
    # The client went away: nothing is left to send.
  ensure
    response.stream.close
  end

  private
    # The event id in the Last-Event-ID header (EventSource sends it when it reconnects).
    def resume_after
      id = request.headers["Last-Event-ID"].to_s
      Integer(id, 10) if id.match?(/\A\d+\z/)
    end

    # Holds a database connection only while reading, not for the life of the stream.
    def with_database(&block)
      ActiveRecord::Base.connection_pool.with_connection(&block)
    end

    def now
      Process.clock_gettime(Process::CLOCK_MONOTONIC)
    end
end
