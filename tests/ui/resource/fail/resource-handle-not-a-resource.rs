/// The catalog, but `#[mcp_resource]` is missing.
fn catalog() -> String {
    String::new()
}

struct NotAResource;

fn main() {
    let _ = catalog();
    let _ = mcp_runtime::Server::builder(mcp_runtime::server_info!()).resource::<NotAResource>();
}
