// The explorer's tests play the toy game, which is also a kind of its own (src/game/toy/).
export { ToyGame, type ToyLevel } from "../../../src/game/toy/game.ts";
