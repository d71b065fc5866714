# Tells open streams that the server is stopping. Puma's graceful stop waits for every request
# to finish, and a Server-Sent Events stream never finishes by itself: `serve` calls
# `ServerShutdown.begin!` before stopping Puma, and each stream then ends its response, so that
# its client sees the stream end cleanly (and reconnects) instead of a dropped connection.
module ServerShutdown
  @begun = Concurrent::Event.new # concurrent-ruby comes with Active Support

  class << self
    def begin!
      @begun.set
    end

    def begun?
      @begun.set?
    end

    # Waits up to `seconds` (a stream's poll interval), returning early once the server stops.
    def wait(seconds)
      @begun.wait(seconds)
    end
  end
end
