import ParlaCore

/// The account and device behind a request's bearer token.
package struct Caller: Sendable {
    package var accountID: AccountID
    package var sessionID: SessionID

    package init(accountID: AccountID, sessionID: SessionID) {
        self.accountID = accountID
        self.sessionID = sessionID
    }
}
