import Foundation

extension WireFormat {
    // MARK: - Dates

    /// The attributes with each date of ``dateFormats`` in its wire format: an ISO 8601 value
    /// is converted, any other value is sent as it is.
    func wireDates(_ attributes: Attributes) -> Attributes {
        guard !dateFormats.isEmpty else { return attributes }
        var result = attributes
        for (name, format) in dateFormats {
            guard let value = attributes[name], let date = try? DateFormat.iso8601.date(from: value) else { continue }
            result[name] = format.value(for: date)
        }
        return result
    }

    /// Reads each date of ``dateFormats`` in a received record (app names) into ISO 8601.
    ///
    /// - Throws: ``SyncError/unmappableResponse(keyPath:reason:)`` naming the attribute's wire
    ///   key path when its value is not a date in its format.
    func appDates(in record: inout JSONObject, at path: String) throws(SyncError) {
        for (name, format) in dateFormats {
            guard let value = record[name], !value.isNull else { continue }
            do throws(DateFormatError) {
                record[name] = DateFormat.iso8601.value(for: try format.date(from: value))
            } catch {
                let key = keys.wireName(for: name)
                throw .unmappableResponse(keyPath: path.isEmpty ? key : "\(path).\(key)", reason: error.description)
            }
        }
    }
}
