// A whole game through a GTP client library, as Sabaki drives an engine: tanbo plays both
// colours on an N x N board, then the client asks for the board, the result and the record.
//
//   cd examples/gtp-client && npm install
//   node play.js /path/to/tanbo [SIZE] [ENGINE]      (defaults: 9, mcts:playouts=300)
//
// Every command and answer is printed, so the output is a transcript of the session.
const {Controller} = require('@sabaki/gtp')

async function main() {
  const [program, size = '9', engine = 'mcts:playouts=300'] = process.argv.slice(2)
  if (!program) {
    console.error('usage: node play.js /path/to/tanbo [SIZE] [ENGINE]')
    process.exit(2)
  }
  const tanbo = new Controller(program, ['gtp', '--engine', engine])
  tanbo.start()
  const send = async (name, ...args) => {
    const response = await tanbo.sendCommand({name, args})
    console.log(`> ${[name, ...args].join(' ')}\n${response.error ? '?' : '='} ${response.content}`)
    if (response.error) throw new Error(`${name}: ${response.content}`)
    return response.content.trim()
  }

  for (const command of ['protocol_version', 'name', 'version']) await send(command)
  await send('boardsize', size)
  await send('clear_board')
  await send('komi', '6.5') // accepted and ignored: Tanbo has no komi

  // Until the game is over: tanbo's `winner` answers "none" while it goes on.
  let colour = 'b'
  for (let moves = 0; moves < 10000; ++moves) {
    const move = await send('genmove', colour)
    if (/resign/i.test(move) || (await send('winner')) !== 'none') break
    colour = colour === 'b' ? 'w' : 'b'
  }
  await send('showboard')
  await send('final_score')
  await send('printsgf')
  await tanbo.stop()
}

main().catch(error => {
  console.error(`play.js: ${error.message}`)
  process.exit(1)
})
