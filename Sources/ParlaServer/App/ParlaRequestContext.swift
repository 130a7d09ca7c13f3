import Hummingbird
import NIOCore

/// Hummingbird's basic context plus the peer's address, which rate limits
/// count by (`ClientAddress`). In-process tests have no peer.
struct ParlaRequestContext: RequestContext, RemoteAddressRequestContext {
    var coreContext: CoreRequestContextStorage
    let remoteAddress: SocketAddress?

    init(source: ApplicationRequestContextSource) {
        coreContext = .init(source: source)
        remoteAddress = source.channel.remoteAddress
    }
}
