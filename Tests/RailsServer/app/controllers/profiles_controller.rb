require "digest"

# A profile saved together with an avatar, as a Rails form upload arrives: multipart form
# data under the `profile` root, read with strong parameters, the file as an
# ActionDispatch::Http::UploadedFile. Nothing is stored: it answers with the permitted
# attributes and the upload's file name, content type, byte size and SHA-256.
class ProfilesController < ApplicationController
  NEXT_ID = Mutex.new
  @next_id = 0

  class << self
    # Ids for created profiles, unique in this process.
    def next_id
      NEXT_ID.synchronize { @next_id += 1 }
    end
  end

  # POST /profiles
  def create
    render json: describe(self.class.next_id), status: :created
  end

  # PATCH/PUT /profiles/1
  def update
    render json: describe(params[:id].to_i)
  end

  private
    # Only allow a list of trusted parameters through.
    def profile_params
      params.require(:profile).permit(:name, :bio, :avatar, tags: [], address: [:city, :zip])
    end

    def describe(id)
      attributes = profile_params.to_h
      avatar = attributes.delete("avatar")
      attributes.merge("id" => id, "avatar" => avatar && describe_upload(avatar))
    end

    # The upload read in chunks, as a controller that stores or scans it would.
    def describe_upload(upload)
      return { "text" => upload.to_s } unless upload.respond_to?(:read)

      digest = Digest::SHA256.new
      size = 0
      upload.rewind
      while (chunk = upload.read(64 * 1024))
        digest << chunk
        size += chunk.bytesize
      end
      {
        "filename" => upload.original_filename,
        "content_type" => upload.content_type,
        "byte_size" => size,
        "sha256" => digest.hexdigest,
      }
    end
end
