struct NotAPrompt;

fn main() {
    let _ = mcp_runtime::Server::builder(mcp_runtime::server_info!()).prompt::<NotAPrompt>();
}
